// A hang's report at scale: which ranks' frames the leader fetches after the verdict, and which
// ranks show a twin's stack (hang/model/report_stacks.h).
#include "catch_compat.hpp"

#include "hang/model/progress.h"
#include "hang/model/report_stacks.h"
#include "hang/multinode/wire.h"
#include "hang/watch/report.h"

using namespace jobsentry;

namespace {

// A rank waiting in MPI_Waitall under one of two innermost functions, loaded at its own address.
StackSample waiting(uint64_t base, const char* innermost) {
    StackSample s;
    s.status = SampleStatus::ok;
    s.in_mpi = true;
    s.state = 'S';
    s.frames = {{base + 0x10, innermost, "/lib/libc.so.6", false},
                {base + 0x20, "PMPI_Waitall", "/lib/libmpi.so.40", true},
                {base + 0x30, "exchange", "/home/u/app", false},
                {base + 0x40, "main", "/home/u/app", false}};
    return s;
}

StackSample sleeping(uint64_t base) {
    StackSample s = waiting(base, "clock_nanosleep");
    s.in_mpi = false;
    s.frames[1] = {base + 0x20, "sleep", "/lib/libc.so.6", false};
    return s;
}

// What the leader holds of a remote rank after the compact rounds: the agent's wire form.
StackSample over_the_wire(const StackSample& s) {
    int rank = 0;
    std::string error;
    auto back = wire::sample_from_json(wire::sample_json(7, s, false), &rank, &error);
    REQUIRE(back);
    return *back;
}

}  // namespace

TEST_CASE("the call chain's digest is the same in two processes loaded at different addresses") {
    const StackSample a = waiting(0x7f0000000000, "poll"), b = waiting(0x55aa00000000, "poll");
    CHECK(exact_signature(a.frames) != exact_signature(b.frames));
    CHECK(chain_signature(a.frames) == chain_signature(b.frames));
    CHECK(chain_signature(a.frames) != chain_signature(waiting(0x7f0000000000, "epoll_wait").frames));
    CHECK(chain_signature(over_the_wire(a)) == chain_signature(a.frames));
}

TEST_CASE("after a hang the leader fetches the suspects and one rank per call chain not shown yet") {
    std::map<int, StackSample> latest;
    latest[0] = waiting(0x1000, "poll");  // local: full
    for (int r = 1; r < 12; ++r) latest[r] = over_the_wire(waiting(0x1000 * (r + 1), r % 3 == 0 ? "epoll_wait" : "poll"));
    latest[7] = over_the_wire(sleeping(0x9000));  // the suspect
    latest[11].status = SampleStatus::unreachable;  // its agent is lost: nothing to fetch
    // poll is shown by rank 0; epoll_wait first at rank 3; the suspect first of all.
    CHECK(report_stack_fetches(latest, {7}) == std::vector<int>{7, 3});
    CHECK(report_stack_fetches(latest, {7}, 1) == std::vector<int>{7});
    CHECK(report_stack_fetches(latest, {}) == std::vector<int>{3, 7});

    // The fetch brings full samples of 3 and 7; every other digest-only rank gets a twin.
    latest[3] = waiting(0x4000, "epoll_wait");
    latest[7] = sleeping(0x9000);
    const std::map<int, int> twins = report_stack_twins(latest);
    CHECK(twins.count(0) == 0);
    CHECK(twins.count(3) == 0);
    CHECK(twins.count(7) == 0);
    CHECK(twins.count(11) == 0);
    CHECK(twins.at(1) == 0);
    CHECK(twins.at(6) == 3);
    CHECK(twins.at(9) == 3);
    CHECK(twins.size() == 8);
}

TEST_CASE("ranks of an agent that sends no chain digest are fetched one by one, up to the limit") {
    std::map<int, StackSample> latest;
    for (int r = 0; r < 5; ++r) {
        latest[r] = over_the_wire(waiting(0x1000, "poll"));
        latest[r].chain_digest = 0;
    }
    CHECK(report_stack_fetches(latest, {}) == std::vector<int>{0, 1, 2, 3, 4});
    CHECK(report_stack_fetches(latest, {}, 2) == std::vector<int>{0, 1});
    CHECK(report_stack_twins(latest).empty());
}

TEST_CASE("a report's twin ranks are drawn in the merged stacks and said in text and JSON") {
    Report r;
    RankReport full, twin;
    full.rank = 0;
    full.frames = waiting(0x1000, "poll").frames;
    twin.rank = 1;
    twin.node = "n2";
    twin.stack_like_rank = 0;
    r.ranks = {full, twin};
    CHECK(stack_tree_of(r).to_text().find("[0-1]") != std::string::npos);
    CHECK(report_json(r)["ranks"][1]["stack_like_rank"] == 0);
    CHECK(report_json(r)["ranks"][1]["frames"].empty());
    CHECK(report_text(r).find("the same call chain as rank 0") != std::string::npos);
}
