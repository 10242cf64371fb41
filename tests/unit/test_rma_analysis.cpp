// The RMA checker on hand-built traces (rmacheck/analysis/checker.h, threads.h): the compatibility
// tables and accumulate atomicity; races within one rank (loads and stores in an epoch, threads
// ordered by OpenMP); loops of epochs. Ordering between ranks: test_rma_ordering.cpp.
#include "catch_compat.hpp"

#include "rma_test_traces.h"
#include "tools/rmacheck/analysis/checker.h"
#include "tools/rmacheck/analysis/threads.h"

#include <algorithm>
#include <set>

using namespace rmacheck;
using namespace rmacheck::test;

TEST_CASE("names are interned: equal text is one copy, order is by text") {
    std::string sum = "MPI_SUM";
    Name a{sum}, b{"MPI_SUM"}, c{std::string_view("MPI_SUM_X").substr(0, 7)};
    CHECK(a == b);
    CHECK(a == c);
    CHECK(&a.str() == &b.str());  // one copy
    CHECK(a.str() == "MPI_SUM");
    CHECK(Name{"MPI_MAX"} != a);
    CHECK(Name{}.empty());
    CHECK(Name{} == Name{""});
    CHECK(!a.empty());
    // By text, not by where the copies happen to be: maps of names order the same in every run.
    Name z{"zz_late"}, m{"mm_later_interned"};
    CHECK(m < z);
    CHECK_FALSE(z < m);
    CHECK_FALSE(a < a);
}

TEST_CASE("the compatibility tables of the slides") {
    using A = AccessKind;
    // Within an epoch (second access after the first).
    CHECK(within_epoch(A::get, A::load) == Compat::novl);
    CHECK(within_epoch(A::get, A::store) == Compat::novl);
    CHECK(within_epoch(A::put, A::load) == Compat::both);
    CHECK(within_epoch(A::put, A::store) == Compat::novl);
    CHECK(within_epoch(A::put, A::put) == Compat::both);
    CHECK(within_epoch(A::get, A::put) == Compat::novl);
    // Across processes (symmetric).
    for (int a = 0; a < 5; ++a)
        for (int b = 0; b < 5; ++b)
            CHECK(across_processes(static_cast<A>(a), static_cast<A>(b)) ==
                  across_processes(static_cast<A>(b), static_cast<A>(a)));
    CHECK(across_processes(A::put, A::put) == Compat::novl);
    CHECK(across_processes(A::store, A::put) == Compat::never);
    CHECK(across_processes(A::get, A::get) == Compat::both);
    CHECK(across_processes(A::acc, A::acc) == Compat::both);
    CHECK(across_processes(A::load, A::get) == Compat::both);
}

TEST_CASE("concurrent accumulates: legal with the same op (or MPI_NO_OP) and basic type") {
    struct Row {
        const char *op_a, *op_b;
        bool race;
    };
    for (const Row& row : {Row{"MPI_SUM", "MPI_SUM", false}, Row{"MPI_SUM", "MPI_MAX", true},
                           Row{"MPI_SUM", "MPI_NO_OP", false}}) {
        auto t = job(3);
        add(t[0], locked(RmaKind::acc, 1, 2, 0x100, 0, row.op_a));
        add(t[2], locked(RmaKind::acc, 1, 2, 0x200, 0, row.op_b));
        CAPTURE(row.op_a, row.op_b);
        CHECK(races(t).size() == (row.race ? 1u : 0u));
    }
    auto t = job(3);
    add(t[0], locked(RmaKind::acc, 1, 2, 0x100, 0, "MPI_SUM"));
    auto other = locked(RmaKind::acc, 1, 2, 0x200, 0, "MPI_SUM");
    other[1].basic = "MPI_DOUBLE";
    add(t[2], other);
    CHECK(races(t).size() == 1);
}

TEST_CASE("atomicity: the same op on the same basic type is atomic per element, anything else conflicts") {
    using K = RmaKind;
    SECTION("MPI_SUM on MPI_INT from two ranks on one element: no race") {
        CHECK(pair_races(atomic_op(K::acc, 2, 0x100, "MPI_SUM"), atomic_op(K::acc, 2, 0x200, "MPI_SUM")).empty());
    }
    SECTION("MPI_SUM against MPI_PROD on that element: a race, named as different operations") {
        auto f = pair_races(atomic_op(K::acc, 2, 0x100, "MPI_SUM"), atomic_op(K::acc, 2, 0x200, "MPI_PROD"));
        REQUIRE(f.size() == 1);
        CHECK(f[0].why == "different operations");
        CHECK(f[0].bytes == Range{8, 12});
    }
    SECTION("MPI_REPLACE counts as an op: with itself atomic, against MPI_SUM a race") {
        CHECK(pair_races(atomic_op(K::acc, 2, 0x100, "MPI_REPLACE"), atomic_op(K::acc, 2, 0x200, "MPI_REPLACE"))
                  .empty());
        CHECK(pair_races(atomic_op(K::acc, 2, 0x100, "MPI_REPLACE"), atomic_op(K::acc, 2, 0x200, "MPI_SUM"))
                  .size() == 1);
    }
    SECTION("MPI_INT against MPI_FLOAT on the same bytes (same size): a race, named as different basic types") {
        auto f = pair_races(atomic_op(K::acc, 2, 0x100, "MPI_SUM"),
                            atomic_op(K::acc, 2, 0x200, "MPI_SUM", "MPI_FLOAT", 4));
        REQUIRE(f.size() == 1);
        CHECK(f[0].why == "different basic types");
    }
    SECTION("different types on neighbouring, non-overlapping elements: no race") {
        CHECK(pair_races(atomic_op(K::acc, 2, 0x100, "MPI_SUM"), atomic_op(K::acc, 3, 0x200, "MPI_SUM", "MPI_FLOAT", 4))
                  .empty());
    }
    SECTION("two ints at byte 0 against two ints at byte 2 (misaligned overlap): a race") {
        // rank 0: ints at window bytes [0,4) [4,8); rank 2: ints at [2,6) [6,10), overlapping across elements.
        auto f = pair_races(atomic_op(K::acc, 0, 0x100, "MPI_SUM", "MPI_INT", 4, {{0, 8}}),
                            atomic_op(K::acc, 0, 0x200, "MPI_SUM", "MPI_INT", 4, {{2, 10}}));
        REQUIRE(f.size() == 1);
        CHECK(f[0].why == "elements not aligned");
        CHECK(f[0].bytes == Range{2, 8});
    }
    SECTION("two ints at byte 0 against one int at byte 4 (aligned overlap): no race") {
        CHECK(pair_races(atomic_op(K::acc, 0, 0x100, "MPI_SUM", "MPI_INT", 4, {{0, 8}}),
                         atomic_op(K::acc, 1, 0x200, "MPI_SUM", "MPI_INT", 4, {{0, 4}}))
                  .empty());
    }
    SECTION("a target type mixing basic types (recorded without one): concurrent accumulates race") {
        CHECK(pair_races(atomic_op(K::acc, 2, 0x100, "MPI_SUM", "", 0), atomic_op(K::acc, 2, 0x200, "MPI_SUM", "", 0))
                  .size() == 1);
    }
    SECTION("an exclusive lock still orders two accumulates that are not atomic together") {
        auto a = atomic_op(K::acc, 2, 0x100, "MPI_SUM");
        a[0].lock_type = 1;
        CHECK(pair_races(a, atomic_op(K::acc, 2, 0x200, "MPI_PROD")).empty());
    }
}

TEST_CASE("atomicity: accumulate_conflict on multi-block target bytes") {
    AtomicOp sum{"MPI_SUM", "MPI_DOUBLE", 8};
    // A vector of doubles at [0,8) [16,24) against one at [16,24): aligned where they overlap.
    CHECK(accumulate_conflict(sum, sum, {{0, 8}, {16, 24}}, {{16, 24}}) == nullptr);
    // ... against one at [20,28): misaligned in the second block only.
    CHECK(std::string(accumulate_conflict(sum, sum, {{0, 8}, {16, 24}}, {{20, 28}})) == "elements not aligned");
    // Blocks that do not overlap are never compared.
    CHECK(accumulate_conflict(sum, sum, {{0, 8}}, {{12, 20}}) == nullptr);
    AtomicOp noop{"MPI_NO_OP", "MPI_INT", 4};
    CHECK(accumulate_conflict(noop, AtomicOp{"MPI_NO_OP", "MPI_FLOAT", 4}, {{0, 4}}, {{0, 4}}) == nullptr);
    CHECK(std::string(accumulate_conflict(noop, AtomicOp{"MPI_SUM", "MPI_FLOAT", 4}, {{0, 4}}, {{0, 4}})) ==
          "different basic types");
}

TEST_CASE("atomicity: MPI_NO_OP only reads; compare-and-swap is an atomic read-modify-write") {
    using K = RmaKind;
    SECTION("Fetch_and_op MPI_NO_OP against a put: a race, the fetch reported as a get") {
        auto f = pair_races(atomic_op(K::fetch_op, 2, 0x100, "MPI_NO_OP"), locked(K::put, 1, 2, 0x200));
        REQUIRE(f.size() == 1);
        CHECK((f[0].a.kind == AccessKind::get || f[0].b.kind == AccessKind::get));
        CHECK((f[0].a.op == "MPI_NO_OP" || f[0].b.op == "MPI_NO_OP"));
    }
    SECTION("MPI_NO_OP against MPI_NO_OP, or against a get: no race (two reads)") {
        CHECK(pair_races(atomic_op(K::fetch_op, 2, 0x100, "MPI_NO_OP"), atomic_op(K::fetch_op, 2, 0x200, "MPI_NO_OP"))
                  .empty());
        CHECK(pair_races(atomic_op(K::get_acc, 2, 0x100, "MPI_NO_OP"), locked(K::get, 1, 2, 0x200)).empty());
    }
    SECTION("MPI_NO_OP against MPI_SUM: atomic on the same type, a race on another") {
        CHECK(pair_races(atomic_op(K::get_acc, 2, 0x100, "MPI_NO_OP"), atomic_op(K::acc, 2, 0x200, "MPI_SUM")).empty());
        CHECK(pair_races(atomic_op(K::get_acc, 2, 0x100, "MPI_NO_OP", "MPI_FLOAT"),
                         atomic_op(K::acc, 2, 0x200, "MPI_SUM"))
                  .size() == 1);
    }
    SECTION("MPI_NO_OP against a load at the target: no race; against a store: a race (precise mode)") {
        for (bool write : {false, true}) {
            auto t = job(2);
            add(t[0], {barrier()});
            add(t[0], atomic_op(K::fetch_op, 3, 0x100, "MPI_NO_OP"));
            add(t[0], {barrier()});
            add(t[1], {barrier(), local(0x11000 + 12, write, 0x300), barrier()});
            CAPTURE(write);
            CHECK(races(t).size() == (write ? 1u : 0u));
        }
    }
    SECTION("compare-and-swap: atomic with itself and with an MPI_NO_OP fetch; a race with MPI_SUM or a put") {
        CHECK(pair_races(atomic_op(K::cas, 2, 0x100, "MPI_CAS"), atomic_op(K::cas, 2, 0x200, "MPI_CAS")).empty());
        CHECK(pair_races(atomic_op(K::cas, 2, 0x100, "MPI_CAS"), atomic_op(K::fetch_op, 2, 0x200, "MPI_NO_OP"))
                  .empty());
        CHECK(pair_races(atomic_op(K::cas, 2, 0x100, "MPI_CAS"), atomic_op(K::fetch_op, 2, 0x200, "MPI_SUM")).size() ==
              1);
        CHECK(pair_races(atomic_op(K::cas, 2, 0x100, "MPI_CAS"), locked(K::put, 1, 2, 0x200)).size() == 1);
    }
}

TEST_CASE("within an epoch: a load of a Get's buffer before completion is a race, after it is not") {
    auto t = job(2);
    add(t[1], {sync(SyncKind::lock, 0, 1), rma(RmaKind::get, 0, 0, 0x100), local(0x9000, false, 0x150),
               sync(SyncKind::unlock, 0), local(0x9000, true, 0x160)});
    auto f = races(t);
    REQUIRE(f.size() == 1);
    CHECK_FALSE(f[0].remote);
    CHECK(f[0].a.kind == AccessKind::get);
    CHECK(f[0].b.kind == AccessKind::load);
    CHECK(f[0].b.site == 0x150);

    SECTION("a load of a Put's origin is allowed, a store is not; flush_local completes it") {
        auto u = job(2);
        add(u[1], {sync(SyncKind::lock_all), rma(RmaKind::put, 0, 0, 0x100), local(0x9000, false, 0x150),
                   local(0x9000, true, 0x160), sync(SyncKind::flush_local, 0), local(0x9000, true, 0x170),
                   sync(SyncKind::unlock_all)});
        auto g = races(u);
        REQUIRE(g.size() == 1);
        CHECK(g[0].b.site == 0x160);
    }
}

TEST_CASE("a store to window memory at the target races with a concurrent put (precise mode)") {
    auto t = job(2);
    add(t[0], {barrier()});
    add(t[0], locked(RmaKind::put, 1, 3, 0x100));
    add(t[0], {barrier()});
    add(t[1], {barrier(), local(0x11000 + 12, true, 0x300), barrier(), local(0x11000 + 12, true, 0x310)});
    auto f = races(t);
    REQUIRE(f.size() == 1);
    CHECK(f[0].b.kind == AccessKind::store);
    CHECK(f[0].b.site == 0x300);
    CHECK(f[0].bytes.lo == 12);
}

namespace {
// OpenMP synchronisation of one thread (an omp record, trace_format.h OmpKind).
Event omp(trace::OmpKind k, uint64_t a, uint64_t b, uint32_t thread) {
    Event e;
    e.type = Rec::omp, e.kind = static_cast<uint8_t>(k), e.id = a, e.id2 = b, e.thread = thread;
    return e;
}
Event on(Event e, uint32_t thread) {
    e.thread = thread;
    return e;
}
// Rank 0 of a 2-rank job as the reader would leave it: every thread named, OpenMP threads marked.
void threaded(RankTrace& t) {
    t.threads.clear(), t.thread_order.clear(), t.omp_threads.clear();
    for (const auto& e : t.events) {
        if (std::find(t.thread_order.begin(), t.thread_order.end(), e.thread) == t.thread_order.end())
            t.thread_order.push_back(e.thread);
        if (e.type == Rec::omp)
            t.omp_threads.insert(e.thread);
        else
            ++t.threads[e.thread].mpi_calls;
    }
}
// Thread 10 opens lock_all and forks region 1: implicit tasks 2 (thread 10) and 3 (thread 11).
std::vector<Event> fork_two() {
    using K = trace::OmpKind;
    return {on(sync(SyncKind::lock_all), 10), omp(K::parallel_begin, 1, 0, 10), omp(K::implicit_begin, 1, 2, 10),
            omp(K::implicit_begin, 1, 3, 11)};
}
// Region 1's end: both threads at its closing barrier, thread 10 joins and closes lock_all; events
// recorded without a thread are thread 10's; then the reader's bookkeeping (threaded).
void join_two(RankTrace& r) {
    using K = trace::OmpKind;
    add(r, {omp(K::barrier_begin, 0, 2, 10), omp(K::barrier_begin, 0, 3, 11), omp(K::barrier_end, 0, 2, 10),
            omp(K::parallel_end, 1, 0, 10), on(sync(SyncKind::unlock_all), 10)});
    for (auto& e : r.events)
        if (e.thread == 0) e.thread = 10;
    threaded(r);
}
}  // namespace

TEST_CASE("threads of one rank ordered by OpenMP: barrier, critical, taskwait; racing without them") {
    using K = trace::OmpKind;
    auto run = [](const std::string& how) {
        auto t = job(2);
        auto& r = t[0];
        add(r, fork_two());
        auto put_flush = [&](uint32_t th, uint64_t site) {
            add(r, {on(rma(RmaKind::put, 1, 3, site), th), on(sync(SyncKind::flush, 1), th)});
        };
        if (how == "barrier") {
            put_flush(10, 0x100);
            add(r, {omp(K::barrier_begin, 0, 2, 10), omp(K::barrier_begin, 0, 3, 11), omp(K::barrier_end, 0, 3, 11)});
            put_flush(11, 0x200);
            add(r, {omp(K::barrier_end, 0, 2, 10)});
        } else if (how == "critical") {
            add(r, {omp(K::mutex_acquired, 77, 0, 10)});
            put_flush(10, 0x100);
            add(r, {omp(K::mutex_acquired, 77, 0, 11)});  // recorded before the release: still after it
            add(r, {omp(K::mutex_released, 77, 0, 10)});
            put_flush(11, 0x200);
            add(r, {omp(K::mutex_released, 77, 0, 11)});
        } else if (how == "taskwait") {
            add(r, {omp(K::task_create, 2, 9, 10), omp(K::task_begin, 0, 9, 11)});
            put_flush(11, 0x200);
            add(r, {omp(K::task_end, 0, 9, 11), omp(K::taskwait_begin, 0, 2, 10), omp(K::taskwait_end, 0, 2, 10)});
            put_flush(10, 0x100);
        } else {  // nothing orders the two threads
            put_flush(10, 0x100);
            put_flush(11, 0x200);
        }
        join_two(r);
        return t;
    };
    for (const char* how : {"barrier", "critical", "taskwait"}) {
        CAPTURE(how);
        auto t = run(how);
        CHECK(ompt_ordered(t[0]));
        CHECK(races(t).empty());
    }
    auto t = run("none");
    auto f = races(t);
    REQUIRE(f.size() == 1);
    CHECK(f[0].a.rank == 0);
    CHECK(f[0].b.rank == 0);
    CHECK(std::set<int>{f[0].a.thread, f[0].b.thread} == std::set<int>{1, 2});
    CHECK(std::set<uint64_t>{f[0].a.site, f[0].b.site} == std::set<uint64_t>{0x100, 0x200});
    auto notes = thread_notes(t);
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].find("rank 0: MPI calls from 2 threads; their order among threads was taken from OpenMP") == 0);
}

TEST_CASE("a rank with a thread outside OpenMP stays one sequence, with the note") {
    using K = trace::OmpKind;
    auto t = job(2);
    auto& r = t[0];
    add(r, {on(sync(SyncKind::lock_all), 10), omp(K::parallel_begin, 1, 0, 10), on(rma(RmaKind::put, 1, 3, 0x100), 10),
            on(sync(SyncKind::flush, 1), 10), on(rma(RmaKind::put, 1, 3, 0x200), 12),  // thread 12: no OMPT
            on(sync(SyncKind::flush, 1), 12), on(sync(SyncKind::unlock_all), 10)});
    threaded(r);
    CHECK_FALSE(ompt_ordered(r));
    CHECK(races(t).empty());  // one sequence in recorded order: the flush orders them
    auto notes = thread_notes(t);
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].find("their order among threads was not checked: 1 thread took no part in OpenMP "
                        "synchronisation (e.g. raw pthreads)") != std::string::npos);
}

TEST_CASE("sibling tasks ordered by depend(out) -> depend(in); without the clauses they race") {
    using K = trace::OmpKind;
    auto run = [](bool depend) {
        auto t = job(2);
        auto& r = t[0];
        add(r, fork_two());
        add(r, {omp(K::task_create, 2, 8, 10)});
        if (depend) add(r, {omp(K::depend_out, 0x5000, 8, 10)});
        add(r, {omp(K::task_create, 2, 9, 10)});
        if (depend) add(r, {omp(K::depend_in, 0x5000, 9, 10)});
        add(r, {omp(K::task_begin, 0, 8, 11), on(rma(RmaKind::put, 1, 3, 0x100), 11), on(sync(SyncKind::flush, 1), 11),
                omp(K::task_end, 0, 8, 11), omp(K::task_begin, 0, 9, 10), on(rma(RmaKind::put, 1, 3, 0x200), 10),
                on(sync(SyncKind::flush, 1), 10), omp(K::task_end, 0, 9, 10), on(sync(SyncKind::unlock_all), 10)});
        threaded(r);
        return t;
    };
    CHECK(races(run(true)).empty());
    CHECK(races(run(false)).size() == 1);
}

TEST_CASE("threads ordered apart: a load of a Get's buffer after its flush races unless synchronised after it") {
    using K = trace::OmpKind;
    auto run = [](bool barrier) {
        auto t = job(2);
        auto& r = t[0];
        add(r, fork_two());
        add(r, {on(rma(RmaKind::get, 1, 3, 0x100), 10), on(sync(SyncKind::flush, 1), 10)});
        if (barrier)
            add(r, {omp(K::barrier_begin, 0, 2, 10), omp(K::barrier_begin, 0, 3, 11), omp(K::barrier_end, 0, 3, 11),
                    omp(K::barrier_end, 0, 2, 10)});
        add(r, {on(local(0x9000, false, 0x300), 11), on(sync(SyncKind::unlock_all), 10)});
        threaded(r);
        ++r.threads[11].accesses;
        return t;
    };
    CHECK(races(run(true)).empty());
    auto f = races(run(false));
    REQUIRE(f.size() == 1);
    CHECK_FALSE(f[0].remote);
    CHECK(std::set<uint64_t>{f[0].a.site, f[0].b.site} == std::set<uint64_t>{0x100, 0x300});
}

TEST_CASE("threads ordered apart: a thread's Puts, each flushed by itself, do not race when another thread's flush "
          "came between") {
    // Each thread Puts to bytes of its own and flushes, over and over (a loop of `omp parallel`); the
    // other thread's flush lands between a Put and its own flush. That flush is not ordered after the
    // Put's call, so it completes nothing the analysis can rely on; the thread's own flush does.
    auto run = [](bool own_flush) {
        auto t = job(2);
        auto& r = t[0];
        add(r, fork_two());
        for (int i = 0; i < 3; ++i) {
            add(r, {on(rma(RmaKind::put, 1, 2, 0x100), 10), on(rma(RmaKind::put, 1, 3, 0x200), 11),
                    on(sync(SyncKind::flush, 1), 10)});
            if (own_flush) add(r, {on(sync(SyncKind::flush, 1), 11)});
        }
        join_two(r);
        return t;
    };
    auto t = run(true);
    CHECK(ompt_ordered(t[0]));
    CHECK(races(t).empty());
    // Without its own flush, only the other thread's, thread 11's Puts to the same bytes are unordered.
    auto f = races(run(false));
    REQUIRE(f.size() == 1);
    CHECK(f[0].a.thread == f[0].b.thread);
    CHECK(f[0].a.site == 0x200);
    CHECK(f[0].b.site == 0x200);
}

// The sweep keeps a loop's alike accesses as one chain (checker.cpp, Chain): every repetition must
// still be checked, a race in one iteration of many found and counted once per concurrent pair.
TEST_CASE("a loop of fenced epochs: a race in one iteration of 300 is found, counted once") {
    const int n = 300, racy_put = 137, racy_store = 41;
    auto t = job(3);
    for (int i = 0; i < n; ++i) {
        for (int r : {0, 1, 2}) add(t[static_cast<size_t>(r)], {sync(SyncKind::fence)});
        add(t[0], {rma(RmaKind::put, 1, 10, 0x100)});
        if (i == racy_put) add(t[2], {rma(RmaKind::put, 1, 10, 0x200)});
        if (i == racy_store) add(t[1], {local(0x11000 + 40, true, 0x300)});
        else add(t[1], {local(0x11000 + 40, false, 0x310)});
    }
    for (int r : {0, 1, 2}) add(t[static_cast<size_t>(r)], {sync(SyncKind::fence)});
    auto f = races(t);
    std::set<std::pair<uint64_t, uint64_t>> sites;
    for (const auto& x : f) sites.insert(std::minmax(x.a.site, x.b.site));
    // put 0x100 vs put 0x200 (iteration 137); store 0x300 vs put 0x100 (iteration 41); the loads of
    // the other 299 iterations race with that iteration's put 0x100 (load vs put: not compatible),
    // and iteration 137's load with put 0x200 too.
    CHECK(sites ==
          std::set<std::pair<uint64_t, uint64_t>>{{0x100, 0x200}, {0x100, 0x300}, {0x100, 0x310}, {0x200, 0x310}});
    for (const auto& x : f) {
        auto pair = std::minmax(x.a.site, x.b.site);
        if (pair == std::minmax<uint64_t>(0x100, 0x200)) CHECK(x.occurrences == 1);
        if (pair == std::minmax<uint64_t>(0x100, 0x300)) CHECK(x.occurrences == 1);
        if (pair == std::minmax<uint64_t>(0x100, 0x310)) CHECK(x.occurrences == static_cast<size_t>(n - 1));
        if (pair == std::minmax<uint64_t>(0x200, 0x310)) CHECK(x.occurrences == 1);
    }
}

TEST_CASE("a loop of shared-lock epochs on two origins, never ordered: every pair races") {
    const int n = 40;
    auto t = job(3);
    for (int i = 0; i < n; ++i) {
        add(t[0], locked(RmaKind::put, 1, 5, 0x100));
        add(t[2], locked(RmaKind::put, 1, 5, 0x200));
    }
    auto f = races(t);
    REQUIRE(f.size() == 1);
    CHECK(f[0].occurrences == static_cast<size_t>(n * n));

    SECTION("a barrier after every iteration: each put races only with its own iteration's") {
        auto u = job(3);
        for (int i = 0; i < n; ++i) {
            add(u[0], locked(RmaKind::put, 1, 5, 0x100));
            add(u[2], locked(RmaKind::put, 1, 5, 0x200));
            for (int r : {0, 1, 2}) add(u[static_cast<size_t>(r)], {barrier()});
        }
        auto g = races(u);
        REQUIRE(g.size() == 1);
        CHECK(g[0].occurrences == static_cast<size_t>(n));
    }
}
