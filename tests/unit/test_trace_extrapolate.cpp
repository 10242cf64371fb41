// trace-to-goal --scale: a ring and a 1-D chain traced at a few ranks carry to
// many ranks with the partners worked out by hand, simulate without deadlock,
// and keep each rank's traced compute; a 2-D torus, a chain traced at two
// ranks, a sub-communicator's collective and a partial job are refused with
// the reason; replicate makes LogGOPSim's whole copies.
#include "catch_compat.hpp"

#include "tools/simulator/engine.h"
#include "tools/tracer/extrapolate.h"
#include "tools/tracer/goal_from_trace.h"
#include "sim_test_params.h"
#include "trace_test_files.h"

using namespace jobtrace;
using jobtrace::test::TraceBytes;

namespace {

// Each rank computes 1000 ns, then Sendrecv: to `to` with tag 5, from `from` (-2: MPI_PROC_NULL),
// then an allreduce of 8 bytes.
RankTrace exchange(std::uint32_t rank, std::uint32_t p, std::int32_t to, std::int32_t from, std::int32_t send_tag = 5,
                   std::int32_t recv_tag = 5) {
    return parse_rank_trace("rank-" + std::to_string(rank), TraceBytes(rank, p)
                                                                .rec(Kind::barrier, -1, 0, 0, 10)
                                                                .rec(Kind::sendrecv_send, to, 64, 1010, 1100, send_tag)
                                                                .rec(Kind::sendrecv_recv, from, 64, 1010, 1100, recv_tag)
                                                                .rec(Kind::allreduce, -1, 8, 1200, 1300)
                                                                .end()
                                                                .str());
}

std::vector<RankTrace> ring(std::uint32_t p) {
    std::vector<RankTrace> t;
    for (std::uint32_t r = 0; r < p; ++r)
        t.push_back(exchange(r, p, static_cast<std::int32_t>((r + 1) % p), static_cast<std::int32_t>((r + p - 1) % p)));
    return t;
}

// A non-periodic 1-D chain shifting right: rank 0 only sends, the last rank only receives.
std::vector<RankTrace> chain(std::uint32_t p) {
    std::vector<RankTrace> t;
    for (std::uint32_t r = 0; r < p; ++r)
        t.push_back(exchange(r, p, r + 1 < p ? static_cast<std::int32_t>(r + 1) : -2,
                             r > 0 ? static_cast<std::int32_t>(r - 1) : -2));
    return t;
}

void simulates(const Extrapolation& x) {
    Conversion c = goal_from_rank_source(x.size(), x.records(), [&](std::uint32_t r) { return x.rank(r); });
    auto result = jobsentry::sim::simulate(c.schedule, jobsentry::sim::small_params(65536));
    CHECK(result.error.empty());
    CHECK(c.schedule.num_ranks == x.size());
}

}  // namespace

TEST_CASE("a ring of 4 carries to 16, 5 and 1 ranks with its partners modulo P'", "[trace][scale]") {
    const auto traced = ring(4);
    for (std::uint32_t target : {16u, 5u, 1u}) {
        INFO("P' = " << target);
        Extrapolation x(traced, target, ScaleRule::offsets);
        CHECK(x.how().rfind("a ring", 0) == 0);
        for (std::uint32_t r = 0; r < target; ++r) {
            RankTrace t = x.rank(r);
            CHECK(t.world_size == target);
            CHECK(t.records[1].peer == static_cast<std::int32_t>((r + 1) % target));
            CHECK(t.records[2].peer == static_cast<std::int32_t>((r + target - 1) % target));
            CHECK(t.comms.at(0).size() == target);
        }
        simulates(x);
    }
}

TEST_CASE("a chain of 4 keeps its ends and repeats its interior", "[trace][scale]") {
    auto traced = chain(4);
    // Interior ranks computed differently (1 and 2): they alternate at P'.
    traced[2].records[1].start = traced[2].records[2].start = 3010;
    Extrapolation x(traced, 10, ScaleRule::offsets);
    CHECK(x.how().rfind("a chain: traced ranks 0..0 and 3..3 are its ends", 0) == 0);
    CHECK(x.rank(0).records[2].peer == -2);   // the first rank receives from nobody
    CHECK(x.rank(0).records[1].peer == 1);
    CHECK(x.rank(9).records[1].peer == -2);   // the last sends to nobody
    CHECK(x.rank(9).records[2].peer == 8);
    for (std::uint32_t r = 1; r < 9; ++r) {
        CHECK(x.rank(r).records[1].peer == static_cast<std::int32_t>(r + 1));
        CHECK(x.rank(r).records[2].peer == static_cast<std::int32_t>(r - 1));
        CHECK(x.rank(r).records[1].start == (r % 2 == 1 ? 1010u : 3010u));  // traced ranks 1, 2 in turn
    }
    simulates(x);
    // An interior of one rank is not enough for P' below the ends plus one.
    CHECK_THROWS_WITH(Extrapolation(chain(3), 1, ScaleRule::offsets),
                      Catch::Contains("--scale must be at least 3"));
}

TEST_CASE("patterns that offsets cannot carry are refused with the reason", "[trace][scale]") {
    // Two ranks: both are ends, and each meets the other P/2 away.
    CHECK_THROWS_WITH(Extrapolation(chain(2), 8, ScaleRule::offsets),
                      Catch::Contains("trace more ranks, or use --scale-rule replicate"));
    // A 2x2 torus shifting along both dimensions: partners 1 and 2 away.
    std::vector<RankTrace> torus;
    for (std::uint32_t r = 0; r < 4; ++r)
        torus.push_back(parse_rank_trace("t", TraceBytes(r, 4)
                                                  .rec(Kind::sendrecv_send, static_cast<std::int32_t>(r ^ 1), 8, 0, 1, 1)
                                                  .rec(Kind::sendrecv_recv, static_cast<std::int32_t>(r ^ 1), 8, 0, 1, 1)
                                                  .rec(Kind::sendrecv_send, static_cast<std::int32_t>(r ^ 2), 8, 2, 3, 2)
                                                  .rec(Kind::sendrecv_recv, static_cast<std::int32_t>(r ^ 2), 8, 2, 3, 2)
                                                  .end()
                                                  .str()));
    CHECK_THROWS_WITH(Extrapolation(torus, 16, ScaleRule::offsets),
                      Catch::Contains("not a regular ring or chain"));
    // A ring whose wrap-around message has its own tag: not a ring; as a chain its ends talk to
    // each other across the interior, which breaks at P'.
    auto linked = ring(5);
    linked[0] = exchange(0, 5, 1, 4, 5, 9);
    linked[4] = exchange(4, 5, 0, 3, 9, 5);
    CHECK_THROWS_WITH(Extrapolation(linked, 9, ScaleRule::offsets),
                      Catch::Contains("not a regular ring or chain"));
    CHECK_NOTHROW(Extrapolation(linked, 5, ScaleRule::offsets));  // at its own scale it is what was traced
    // A partial job.
    auto partial = ring(4);
    partial.pop_back();
    CHECK_THROWS_WITH(Extrapolation(partial, 8, ScaleRule::offsets),
                      Catch::Contains("is missing or unreadable"));
}

TEST_CASE("a collective on a sub-communicator is refused", "[trace][scale]") {
    std::vector<RankTrace> traced;
    for (std::uint32_t r = 0; r < 4; ++r) {
        const std::int32_t half[2] = {static_cast<std::int32_t>(r & 2), static_cast<std::int32_t>((r & 2) + 1)};
        traced.push_back(parse_rank_trace("s", TraceBytes(r, 4)
                                                   .rec(Kind::comm, 2, 0, 0, 0, 0, 0, 1)  // communicator 1: 2 members
                                                   .raw(half, sizeof half)
                                                   .rec(Kind::allreduce, -1, 8, 0, 1, 0, 0, 1)
                                                   .end()
                                                   .str()));
    }
    CHECK_THROWS_WITH(Extrapolation(traced, 8, ScaleRule::offsets),
                      Catch::Contains("on a communicator of 2 of the 4 ranks"));
}

TEST_CASE("replicate makes whole copies, as LogGOPSim's schedgen --traces-extr", "[trace][scale]") {
    auto traced = chain(3);
    Extrapolation x(traced, 9, ScaleRule::replicate);
    for (std::uint32_t r = 0; r < 9; ++r) {
        const std::uint32_t base = r / 3 * 3;
        const RankTrace t = x.rank(r);
        CHECK(t.records[1].peer == (r % 3 == 2 ? -2 : static_cast<std::int32_t>(r + 1)));
        CHECK(t.records[2].peer == (r % 3 == 0 ? -2 : static_cast<std::int32_t>(r - 1)));
        CHECK(t.records[1].peer < static_cast<std::int32_t>(base + 3));
    }
    simulates(x);
    CHECK_THROWS_WITH(Extrapolation(traced, 10, ScaleRule::replicate),
                      Catch::Contains("10 is not a multiple of 3"));
}
