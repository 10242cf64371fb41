// Happens-before between ranks on hand-built traces (rmacheck/analysis/happens_before.h): what
// orders two ranks' epochs (barriers, messages, fences, nonblocking collectives, communicators,
// post/start/complete/wait), and a rank whose trace stops early.
#include "catch_compat.hpp"

#include "rma_test_traces.h"
#include "tools/rmacheck/analysis/checker.h"

using namespace rmacheck;
using namespace rmacheck::test;

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

namespace {
// A nonblocking collective on MPI_COMM_WORLD (root: world rank) and the completion of its request.
Event icoll(trace::CollKind kind, uint64_t request, int root = -1) {
    Event e = barrier();
    e.kind = static_cast<uint8_t>(kind), e.peer = root, e.request = request;
    return e;
}
Event done(uint64_t request) {
    Event e;
    e.type = Rec::req_done, e.request = request, e.comm = 1;
    return e;
}
}  // namespace

TEST_CASE("nonblocking collectives order at completion, after the other members' calls") {
    using C = trace::CollKind;
    // Rank 0 puts before its Ibarrier call or between the call and its wait; rank 2 puts after its wait.
    for (bool inside : {false, true}) {
        auto t = job(3);
        if (!inside) add(t[0], locked(RmaKind::put, 1, 5, 0x100));
        add(t[0], {icoll(C::all, 7)});
        if (inside) add(t[0], locked(RmaKind::put, 1, 5, 0x100));
        add(t[0], {done(7)});
        add(t[1], {icoll(C::all, 3), done(3)});
        add(t[2], {icoll(C::all, 9), done(9)});
        add(t[2], locked(RmaKind::put, 1, 5, 0x200));
        CAPTURE(inside);
        CHECK(races(t).size() == (inside ? 1u : 0u));
    }
    SECTION("an Ibarrier never completed orders nothing (and says so)") {
        auto t = job(3);
        add(t[0], locked(RmaKind::put, 1, 5, 0x100));
        add(t[0], {icoll(C::all, 7), done(7)});
        add(t[1], {icoll(C::all, 3), done(3)});
        add(t[2], {icoll(C::all, 9)});
        add(t[2], locked(RmaKind::put, 1, 5, 0x200));
        Execution exec(t);
        CHECK(find_races(exec).size() == 1);
        CHECK(!exec.warnings().empty());
    }
    SECTION("Ibcast orders the root's call before the others' completion, not the other way") {
        // Rank 0 puts before its Ibcast, rank 2 after its completion: ordered when rank 0 is the root;
        // with rank 2 the root, it completes without waiting for rank 0's call.
        for (int root : {0, 2}) {
            auto t = job(3);
            add(t[0], locked(RmaKind::put, 1, 5, 0x100));
            for (int r = 0; r < 3; ++r) add(t[static_cast<size_t>(r)], {icoll(C::bcast, 7, root), done(7)});
            add(t[2], locked(RmaKind::put, 1, 5, 0x200));
            CAPTURE(root);
            CHECK(races(t).size() == (root == 2 ? 1u : 0u));
        }
    }
}

TEST_CASE("a dup'ed communicator (same members, generation 1) has its own messages and collectives") {
    // Communicator 2 is a dup of MPI_COMM_WORLD (communicator 1) on every rank.
    auto dup_job = [] {
        auto t = job(3);
        for (auto& x : t) x.comms[2] = x.comms[1], x.comm_generation[2] = 1;
        return t;
    };
    auto on = [](Event e, uint32_t comm) {
        e.comm = comm;
        return e;
    };
    SECTION("messages: rank 2's receive on the dup matches rank 0's send on the dup, after its put") {
        // Rank 0 sends on MPI_COMM_WORLD, puts, then sends on the dup (same tag); rank 2 receives on the
        // dup, puts, then receives on MPI_COMM_WORLD. Matched as one communicator, the first receive
        // would pair with the send before the put: a false race.
        auto t = dup_job();
        add(t[0], {send(2, 0)});
        add(t[0], locked(RmaKind::put, 1, 5, 0x100));
        add(t[0], {on(send(2, 0), 2)});
        add(t[2], {on(recv(0, 0), 2)});
        add(t[2], locked(RmaKind::put, 1, 5, 0x200));
        add(t[2], {recv(0, 0)});
        CHECK(races(t).empty());
    }
    SECTION("collectives: Ibarriers on MPI_COMM_WORLD and the dup started in different orders") {
        // Rank 0 puts between its world and its dup Ibarrier; rank 2 puts after completing the world one:
        // a race. Matched as one sequence, rank 2's world Ibarrier would pair with rank 0's dup one,
        // issued after the put: the race would be missed.
        using C = trace::CollKind;
        auto t = dup_job();
        add(t[0], {icoll(C::all, 1)});
        add(t[0], locked(RmaKind::put, 1, 5, 0x100));
        add(t[0], {on(icoll(C::all, 2), 2), done(1), done(2)});
        add(t[1], {icoll(C::all, 1), on(icoll(C::all, 2), 2), done(1), done(2)});
        add(t[2], {on(icoll(C::all, 2), 2), icoll(C::all, 1), done(1)});
        add(t[2], locked(RmaKind::put, 1, 5, 0x200));
        add(t[2], {done(2)});
        CHECK(races(t).size() == 1);
    }
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
