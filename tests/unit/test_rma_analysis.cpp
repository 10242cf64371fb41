// Happens-before and the compatibility tables of the RMA checker on
// hand-built traces (rmacheck/analysis/happens_before.h, checker.h).
#include "catch_compat.hpp"

#include "checker.h"

using namespace rmacheck;
using trace::Rec;
using trace::RmaKind;
using trace::SyncKind;

namespace {
// A job of n ranks on MPI_COMM_WORLD with one window of 64 bytes per rank (disp_unit 4).
std::vector<RankTrace> job(int n) {
    std::vector<RankTrace> t(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
        auto& x = t[static_cast<size_t>(r)];
        x.rank = r, x.size = n;
        for (int k = 0; k < n; ++k) x.comms[1].push_back(k);
        x.wins[1] = WinDesc{1, 0, 0x10000u + 0x1000u * static_cast<uint64_t>(r), 64, 4, 0, {}};
    }
    return t;
}
Event rma(RmaKind k, int target, int64_t disp, uint64_t site, std::string op = "") {
    Event e;
    e.type = Rec::rma, e.kind = static_cast<uint8_t>(k), e.win = 1, e.target = target, e.disp = disp;
    e.site = site, e.op = std::move(op), e.basic = "MPI_INT";
    e.target_bytes = {{0, 4}};
    if (k == RmaKind::get)
        e.result = {{0x9000, 0x9004}};
    else
        e.origin = {{0x9000, 0x9004}};
    return e;
}
Event sync(SyncKind k, int target = -1, int lock_type = 0) {
    Event e;
    e.type = Rec::sync, e.kind = static_cast<uint8_t>(k), e.win = 1, e.target = target, e.lock_type = lock_type;
    return e;
}
Event barrier() {
    Event e;
    e.type = Rec::coll, e.comm = 1, e.kind = static_cast<uint8_t>(trace::CollKind::all);
    return e;
}
Event send(int dest, int tag) {
    Event e;
    e.type = Rec::send, e.comm = 1, e.peer = dest, e.tag = tag;
    return e;
}
Event recv(int source, int tag) {
    Event e;
    e.type = Rec::recv, e.comm = 1, e.peer = source, e.tag = tag, e.is_recv = true;
    return e;
}
Event local(uint64_t addr, bool write, uint64_t pc) {
    Event e;
    e.type = Rec::local, e.addr = addr, e.size = 4, e.write = write, e.site = pc;
    return e;
}
std::vector<Event> locked(RmaKind k, int target, int64_t disp, uint64_t site, int lock_type = 0,
                          std::string op = "") {
    return {sync(SyncKind::lock, target, lock_type), rma(k, target, disp, site, std::move(op)),
            sync(SyncKind::unlock, target)};
}
void add(RankTrace& t, const std::vector<Event>& events) { t.events.insert(t.events.end(), events.begin(), events.end()); }
std::vector<Finding> races(const std::vector<RankTrace>& t) { return find_races(Execution(t)); }
}  // namespace

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

TEST_CASE("puts of two origins under shared locks in one barrier interval race; a barrier orders them") {
    auto t = job(3);
    for (int r : {0, 1, 2}) add(t[static_cast<size_t>(r)], {barrier()});
    add(t[0], locked(RmaKind::put, 1, 5, 0x100));
    add(t[2], locked(RmaKind::put, 1, 5, 0x200));
    for (int r : {0, 1, 2}) add(t[static_cast<size_t>(r)], {barrier()});
    auto f = races(t);
    REQUIRE(f.size() == 1);
    CHECK(f[0].remote);
    CHECK(f[0].a.rank == 0);
    CHECK(f[0].b.rank == 2);
    CHECK(f[0].target_rank == 1);
    CHECK(f[0].bytes.lo == 20);
    CHECK(f[0].bytes.hi == 24);

    SECTION("a barrier between the epochs orders them") {
        auto u = job(3);
        for (int r : {0, 1, 2}) add(u[static_cast<size_t>(r)], {barrier()});
        add(u[0], locked(RmaKind::put, 1, 5, 0x100));
        for (int r : {0, 1, 2}) add(u[static_cast<size_t>(r)], {barrier()});
        add(u[2], locked(RmaKind::put, 1, 5, 0x200));
        for (int r : {0, 1, 2}) add(u[static_cast<size_t>(r)], {barrier()});
        CHECK(races(u).empty());
    }
    SECTION("an exclusive lock excludes the other epoch") {
        auto u = job(3);
        add(u[0], locked(RmaKind::put, 1, 5, 0x100, 1));
        add(u[2], locked(RmaKind::put, 1, 5, 0x200, 0));
        CHECK(races(u).empty());
    }
    SECTION("different bytes do not conflict") {
        auto u = job(3);
        add(u[0], locked(RmaKind::put, 1, 5, 0x100));
        add(u[2], locked(RmaKind::put, 1, 6, 0x200));
        CHECK(races(u).empty());
    }
}

TEST_CASE("unlock completes but does not order: a later epoch on another rank without a message races") {
    auto t = job(3);
    add(t[0], locked(RmaKind::put, 1, 0, 0x100));
    add(t[2], locked(RmaKind::get, 1, 0, 0x200));
    CHECK(races(t).size() == 1);
}

TEST_CASE("a message orders: send after the epoch, receive before the other epoch") {
    auto t = job(3);
    add(t[0], locked(RmaKind::put, 1, 0, 0x100));
    add(t[0], {send(2, 7)});
    add(t[2], {recv(0, 7)});
    add(t[2], locked(RmaKind::put, 1, 0, 0x200));
    CHECK(races(t).empty());

    SECTION("a message with another tag matches another send, which came first") {
        auto u = job(3);
        add(u[0], {send(2, 8)});
        add(u[0], locked(RmaKind::put, 1, 0, 0x100));
        add(u[0], {send(2, 7)});
        add(u[2], {recv(0, 8)});  // wildcard receive resolved to tag 8: sent before the epoch
        add(u[2], locked(RmaKind::put, 1, 0, 0x200));
        add(u[2], {recv(0, 7)});
        CHECK(races(u).size() == 1);
    }
}

TEST_CASE("fences order puts and gets of different epochs; within one epoch they race") {
    auto t = job(3);
    for (int r : {0, 1, 2}) add(t[static_cast<size_t>(r)], {sync(SyncKind::fence)});
    add(t[0], {rma(RmaKind::put, 1, 10, 0x100)});
    for (int r : {0, 1, 2}) add(t[static_cast<size_t>(r)], {sync(SyncKind::fence)});
    add(t[2], {rma(RmaKind::get, 1, 10, 0x200)});
    for (int r : {0, 1, 2}) add(t[static_cast<size_t>(r)], {sync(SyncKind::fence)});
    CHECK(races(t).empty());

    auto u = job(3);
    for (int r : {0, 1, 2}) add(u[static_cast<size_t>(r)], {sync(SyncKind::fence)});
    add(u[0], {rma(RmaKind::put, 1, 10, 0x100)});
    add(u[2], {rma(RmaKind::get, 1, 10, 0x200)});
    for (int r : {0, 1, 2}) add(u[static_cast<size_t>(r)], {sync(SyncKind::fence)});
    auto f = races(u);
    REQUIRE(f.size() == 1);
    CHECK(f[0].a.kind == AccessKind::put);
    CHECK(f[0].b.kind == AccessKind::get);
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

TEST_CASE("post/start/complete/wait edges order two access epochs") {
    auto t = job(3);
    Event post0 = sync(SyncKind::post), post2 = sync(SyncKind::post);
    post0.group = {0}, post2.group = {2};
    Event start = sync(SyncKind::start);
    start.group = {1};
    add(t[1], {post0, sync(SyncKind::wait), post2, sync(SyncKind::wait)});
    add(t[0], {start, rma(RmaKind::put, 1, 0, 0x100), sync(SyncKind::complete)});
    add(t[2], {start, rma(RmaKind::put, 1, 0, 0x200), sync(SyncKind::complete)});
    CHECK(races(t).empty());

    auto u = job(3);
    Event both = sync(SyncKind::post);
    both.group = {0, 2};
    add(u[1], {both, sync(SyncKind::wait)});
    add(u[0], {start, rma(RmaKind::put, 1, 0, 0x100), sync(SyncKind::complete)});
    add(u[2], {start, rma(RmaKind::put, 1, 0, 0x200), sync(SyncKind::complete)});
    CHECK(races(u).size() == 1);
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

TEST_CASE("a rank whose trace stops early: the others are still ordered and analysed") {
    auto t = job(3);
    add(t[0], {barrier()});
    add(t[0], locked(RmaKind::put, 1, 5, 0x100));
    add(t[0], {barrier()});
    add(t[2], {barrier()});
    add(t[2], locked(RmaKind::put, 1, 5, 0x200));
    add(t[2], {barrier()});
    // Rank 1's trace is empty (died before writing): the barriers match among ranks 0 and 2.
    Execution exec(t);
    CHECK(find_races(exec).size() == 1);
}
