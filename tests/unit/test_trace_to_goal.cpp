// trace-to-goal: a small hand-made two-rank trace gives the expected GOAL
// text (calc for the gaps, program order, irequires after an Isend, the Wait's
// requires), collectives expand into their rounds, and a rank left out drops
// its messages and says so.
#include "catch_compat.hpp"

#include <sstream>
#include <tuple>

#include "tools/tracer/collective_rounds.h"
#include "tools/simulator/engine.h"
#include "tools/tracer/goal_from_trace.h"
#include "tools/simulator/goal_reader.h"
#include "tools/simulator/goal_writer.h"
#include "sim_test_params.h"
#include "trace_test_files.h"

using namespace jobtrace;
using jobtrace::test::TraceBytes;

namespace {

std::string goal_text(const Conversion& c) {
    std::ostringstream out;
    jobsentry::sim::write_goal(c.schedule, out);
    return out.str();
}

}  // namespace

TEST_CASE("a two-rank exchange becomes the GOAL written by hand", "[trace]") {
    // Rank 0: computes 1000 ns, Isend 64 B to 1, computes 500 ns, Wait, Recv 8 B from 1.
    // Rank 1: Recv 64 B from 0 (any source, matched 0), computes 2000 ns, Send 8 B to 0.
    RankTrace r0 = parse_rank_trace("rank-0", TraceBytes(0, 2)
                                                  .rec(Kind::barrier, -1, 0, 0, 100)
                                                  .rec(Kind::isend, 1, 64, 1100, 1200, 7, 1)
                                                  .rec(Kind::complete, -1, 0, 1700, 1900, 0, 1)
                                                  .rec(Kind::recv, 1, 8, 1900, 5000, 3)
                                                  .end()
                                                  .str());
    RankTrace r1 = parse_rank_trace("rank-1", TraceBytes(1, 2)
                                                  .rec(Kind::barrier, -1, 0, 0, 100)
                                                  .rec(Kind::recv, 0, 64, 100, 1500, 7)
                                                  .rec(Kind::send, 0, 8, 3500, 3600, 3)
                                                  .end()
                                                  .str());
    Conversion c = goal_from_traces({r0, r1}, 2, {});
    CHECK(c.notes.empty());
    CHECK(goal_text(c) ==
          "num_ranks 2\n"
          "\nrank 0 {\n"
          "l1: send 1b to 1 tag 1073741824\n"
          "l2: recv 1b from 1 tag 1073741824\n"
          "l3: calc 1000\n"
          "l4: send 64b to 1 tag 7\n"
          "l5: calc 500\n"
          "l6: recv 8b from 1 tag 3\n"
          "l3 requires l1\nl3 requires l2\n"
          "l4 requires l3\n"
          "l5 irequires l4\n"
          "l6 requires l4\nl6 requires l5\n"
          "}\n"
          "\nrank 1 {\n"
          "l1: send 1b to 0 tag 1073741824\n"
          "l2: recv 1b from 0 tag 1073741824\n"
          "l3: recv 64b from 0 tag 7\n"
          "l4: calc 2000\n"
          "l5: send 8b to 0 tag 3\n"
          "l3 requires l1\nl3 requires l2\n"
          "l4 requires l3\n"
          "l5 requires l4\n"
          "}\n");
    // It simulates: rank 1's 2000 ns of compute lie on the path, and it ends.
    auto params = jobsentry::sim::small_params(65536);
    auto result = jobsentry::sim::simulate(c.schedule, params);
    CHECK(result.error.empty());
    CHECK(result.makespan > 3000);
}

TEST_CASE("Sendrecv, an Irecv from any source and an Ssend", "[trace]") {
    // Rank 0: Irecv(any source, any tag) as request 4, Sendrecv with 1, Wait for request 4 (matched 1, tag 9).
    // Rank 1: Sendrecv with 0, Ssend to 0 with tag 9.
    RankTrace r0 = parse_rank_trace("rank-0", TraceBytes(0, 2)
                                                  .rec(Kind::irecv, -1, 16, 0, 10, -1, 4)
                                                  .rec(Kind::sendrecv_send, 1, 8, 10, 50, 2)
                                                  .rec(Kind::sendrecv_recv, 1, 8, 10, 50, 2)
                                                  .rec(Kind::complete, 1, 16, 60, 90, 9, 4)
                                                  .end()
                                                  .str());
    TraceBytes b1(1, 2);
    b1.rec(Kind::sendrecv_send, 0, 8, 0, 50, 2).rec(Kind::sendrecv_recv, 0, 8, 0, 50, 2);
    Record ssend{static_cast<std::uint8_t>(Kind::send), kSynchronous, 0, 0, 9, 0, 16, 50, 60};
    b1.raw(&ssend, sizeof ssend);
    Record end{static_cast<std::uint8_t>(Kind::end), 0, 0, -1, 0, 0, 3, 0, 0};
    b1.raw(&end, sizeof end);
    Conversion c = goal_from_traces({r0, parse_rank_trace("rank-1", b1.str())}, 2, {});
    REQUIRE(c.notes.size() == 1);
    CHECK(c.notes[0] == "1 MPI_Ssend simulated as standard sends (GOAL has no synchronous send)");
    const std::string goal = goal_text(c);
    CHECK(goal.find("l1: recv 16b from 1 tag 9\n") != std::string::npos);
    // Both halves of rank 0's Sendrecv start after the Irecv started; the calc after them waits for both.
    CHECK(goal.find("l2 irequires l1\nl3 irequires l1\n") != std::string::npos);
    CHECK(goal.find("l4 requires l2\nl4 requires l3\n") != std::string::npos);
    auto result = jobsentry::sim::simulate(c.schedule, jobsentry::sim::small_params(65536));
    CHECK(result.error.empty());
}

TEST_CASE("collectives expand into the documented rounds", "[trace]") {
    auto pairs = [](const std::vector<Round>& rounds) {
        std::vector<std::vector<std::pair<bool, std::uint32_t>>> out;
        for (const Round& r : rounds) {
            out.emplace_back();
            for (const Message& m : r) out.back().push_back({m.send, m.peer});
        }
        return out;
    };
    using P = std::vector<std::vector<std::pair<bool, std::uint32_t>>>;
    // Binomial bcast over 8 from root 2: position 6 (relative 4) receives from 2, sends to 7 (5) and 0 (6).
    CHECK(pairs(collective_rounds(Kind::bcast, 8, 6, 2, 4)) == P{{{false, 2}}, {{true, 0}, {true, 7}}});
    // Binomial reduce towards 0 over 6: 4 receives from 5, then sends to 0.
    CHECK(pairs(collective_rounds(Kind::reduce, 6, 4, 0, 4)) == P{{{false, 5}}, {{true, 0}}});
    // Dissemination over 5: ceil(log2 5) = 3 rounds.
    CHECK(pairs(collective_rounds(Kind::barrier, 5, 0, 0, 0)) ==
          P{{{true, 1}, {false, 4}}, {{true, 2}, {false, 3}}, {{true, 4}, {false, 1}}});
    CHECK(pairs(collective_rounds(Kind::gather, 3, 1, 1, 4)) == P{{{false, 0}, {false, 2}}});
    CHECK(pairs(collective_rounds(Kind::scatter, 3, 0, 1, 4)) == P{{{false, 1}}});
    CHECK(collective_rounds(Kind::alltoall, 4, 0, 0, 4).size() == 3);
    // Recursive doubling over 6 (4 + 2 folded): 0 hands to 1 and gets it back; 1 exchanges with 3 (position 0
    // with 1), then with 4 (position 0 with 2); 5 (position 3) with 4 (2), then with 3 (1).
    CHECK(pairs(collective_rounds(Kind::allreduce, 6, 0, 0, 8)) == P{{{true, 1}}, {{false, 1}}});
    CHECK(pairs(collective_rounds(Kind::allreduce, 6, 1, 0, 8)) ==
          P{{{false, 0}}, {{true, 3}, {false, 3}}, {{true, 4}, {false, 4}}, {{true, 0}}});
    CHECK(pairs(collective_rounds(Kind::allreduce, 6, 5, 0, 8)) == P{{{true, 4}, {false, 4}}, {{true, 3}, {false, 3}}});
    CHECK(pairs(collective_rounds(Kind::allreduce, 2, 1, 0, 8)) == P{{{true, 0}, {false, 0}}});
    CHECK(pairs(collective_rounds(Kind::allreduce, 2, 1, 0, 8, Allreduce::reduce_bcast)) ==
          P{{{true, 0}}, {{false, 0}}});
    CHECK(collective_rounds(Kind::allreduce, 1, 0, 0, 4).empty());
    // Rabenseifner over 6 with 4096 bytes: rank 1 (position 0) folds 0's 4096 in, halves with 3 (2048)
    // and 4 (1024), gathers back from 4 (1024) and 3 (2048), and returns the whole result to 0.
    auto sized = [](const std::vector<Round>& rounds) {
        std::vector<std::vector<std::tuple<bool, std::uint32_t, std::uint64_t>>> out;
        for (const Round& r : rounds) {
            out.emplace_back();
            for (const Message& m : r) out.back().push_back({m.send, m.peer, m.bytes});
        }
        return out;
    };
    using S = std::vector<std::vector<std::tuple<bool, std::uint32_t, std::uint64_t>>>;
    CHECK(sized(collective_rounds(Kind::allreduce, 6, 1, 0, 4096, Allreduce::rabenseifner)) ==
          S{{{false, 0, 4096}},
            {{true, 3, 2048}, {false, 3, 2048}},
            {{true, 4, 1024}, {false, 4, 1024}},
            {{true, 4, 1024}, {false, 4, 1024}},
            {{true, 3, 2048}, {false, 3, 2048}},
            {{true, 0, 4096}}});
    // by-size: recursive doubling up to 2048 bytes, Rabenseifner above.
    CHECK(sized(collective_rounds(Kind::allreduce, 2, 0, 0, 2048, Allreduce::by_size)) == S{{{true, 1, 2048}, {false, 1, 2048}}});
    CHECK(sized(collective_rounds(Kind::allreduce, 2, 0, 0, 2049, Allreduce::by_size)) ==
          S{{{true, 1, 1024}, {false, 1, 1024}}, {{true, 1, 1024}, {false, 1, 1024}}});
}

TEST_CASE("every expanded collective simulates without deadlock for 1..9 ranks", "[trace]") {
    const Kind kinds[] = {Kind::barrier, Kind::bcast, Kind::reduce, Kind::allreduce, Kind::gather,
                          Kind::scatter, Kind::allgather, Kind::alltoall};
    for (std::uint32_t p = 1; p <= 9; ++p)
        for (Allreduce allreduce : {Allreduce::recursive_doubling, Allreduce::reduce_bcast, Allreduce::rabenseifner})
        for (Kind kind : kinds) {
            std::vector<RankTrace> traces;
            for (std::uint32_t r = 0; r < p; ++r)
                traces.push_back(parse_rank_trace("r", TraceBytes(r, p)
                                                           .rec(kind, static_cast<std::int32_t>(p / 2), 1000, 0, 10)
                                                           .rec(kind, 0, 10, 20, 30)
                                                           .end()
                                                           .str()));
            Conversion c = goal_from_traces(traces, p, {}, allreduce);
            INFO(kind_name(kind) << " over " << p);
            auto result = jobsentry::sim::simulate(c.schedule, jobsentry::sim::small_params(65536));
            CHECK(result.error.empty());
        }
}

TEST_CASE("a rank left out drops its messages and the GOAL says so", "[trace]") {
    RankTrace r0 = parse_rank_trace("rank-0", TraceBytes(0, 3)
                                                  .rec(Kind::send, 1, 8, 0, 10)
                                                  .rec(Kind::send, 2, 8, 10, 20)
                                                  .rec(Kind::bcast, 2, 8, 20, 30)
                                                  .end()
                                                  .str());
    RankTrace r2 = parse_rank_trace("rank-2", TraceBytes(2, 3)
                                                  .rec(Kind::recv, 0, 8, 0, 20)
                                                  .rec(Kind::bcast, 2, 8, 20, 30)
                                                  .end()
                                                  .str());
    Conversion c = goal_from_traces({r0, r2}, 3, {{1, "rank-1.jstrace: offset 72: expected a record"}});
    REQUIRE(c.notes.size() == 2);
    CHECK(c.notes[0] == "rank 1 left out (no ops): rank-1.jstrace: offset 72: expected a record");
    CHECK(c.notes[1] ==
          "1 message to or from left-out ranks dropped; collectives run among the ranks present");
    auto result = jobsentry::sim::simulate(c.schedule, jobsentry::sim::small_params(65536));
    CHECK(result.error.empty());
    // The GOAL reads back (with the comment trace-to-goal puts first).
    std::stringstream text;
    text << "// " << c.notes[0] << "\n";
    jobsentry::sim::write_goal(c.schedule, text);
    CHECK(jobsentry::sim::read_goal(text, "t.goal").ops.size() == c.schedule.ops.size());
}
