// The LogGOPSim model (--model loggopsim) against makespans measured with
// LogGOPSim itself on schedgen's patterns (issue #18; L=2500 o=1500 g=1000
// G=6 O=0 S=65535 ns), the schedules rebuilt by schedgen_patterns.cpp; and
// each rule where the two models differ, worked by hand.
#include "catch_compat.hpp"

#include <sstream>

#include "tools/simulator/engine.h"
#include "tools/simulator/goal_reader.h"
#include "tools/simulator/loggopsim_engine.h"
#include "tools/simulator/collectives.h"
#include "sim_test_params.h"

using namespace jobsentry::sim;

namespace {

struct Reference {
    const char* pattern;
    std::uint32_t procs;
    std::uint64_t bytes;
    Time loggopsim;  // LogGOPSim's makespan
    Time jobsentry;  // the project's model
};

// The table: LogGOPSim's values are facts about the reference.
const Reference kReference[] = {
    {"binomialtreebcast", 1024, 1, 55000, 55000},
    {"binomialtreebcast", 1024, 100000, 6054940, 6154940},
    {"binomialtreereduce", 1000, 1024, 112380, 111880},
    {"binarytreebcast", 500, 1024, 143070, 143070},
    {"dissemination", 4096, 8, 66504, 66504},
    {"linbarrier", 64, 1, 197000, 197000},
    {"gather", 100, 256, 303970, 254970},
    {"scatter", 100, 256, 254970, 254970},
    {"linear_alltoall", 32, 100000, 18770314, 18728314},
};

}  // namespace

TEST_CASE("LogGOPSim reference: schedgen's patterns give LogGOPSim's makespans", "[simulator][loggopsim]") {
    const LogGOPS p = test_params(2500, 1500, 1000, 6, 0, 65535);
    for (const Reference& ref : kReference) {
        INFO(ref.pattern << " P=" << ref.procs << " s=" << ref.bytes);
        Schedule s = make_collective(std::string("schedgen:") + ref.pattern, ref.procs, ref.bytes);
        SimResult reference = simulate_loggopsim(s, p);
        CHECK(reference.error.empty());
        CHECK(reference.makespan == ref.loggopsim);
        SimResult own = simulate(s, p);
        CHECK(own.error.empty());
        CHECK(own.makespan == ref.jobsentry);
    }
}

// Where the models differ, worked by hand (L=100 o=10 g=5; docs/simulator.md,
// "The two models"). Each case runs the same GOAL text under both.
namespace {

struct BothModels {
    Time jobsentry, loggopsim;
};

BothModels run_both(const std::string& goal, const LogGOPS& p) {
    std::istringstream in(goal);
    Schedule s = read_goal(in, "case.goal");
    SimResult own = simulate(s, p), reference = simulate_loggopsim(s, p);
    REQUIRE(own.error.empty());
    REQUIRE(reference.error.empty());
    return {own.makespan, reference.makespan};
}

}  // namespace

TEST_CASE("models: the receiver of many-to-one traffic", "[simulator][loggopsim]") {
    // Gather of two 11-byte messages, G=3 O=0: (s-1)G = 30, (s-1)O = 0. Both
    // reach the root at o + L = 110. LogGOPSim: the first takes the CPU and NIC
    // at 110, the CPU for o + max(0, 30) until 150, the NIC for g + 30 until
    // 145; the second waits for both, 150 + 40 = 190. The project: the NIC
    // takes them at 110 and 145; the second's CPU work starts at 150 but ends
    // with its last byte plus o, max(150 + 10, 145 + 30 + 10) = 185.
    BothModels t = run_both("num_ranks 3\nrank 0 {\nrecv 11b from 1\nrecv 11b from 2\n}\n"
                            "rank 1 {\nsend 11b to 0\n}\nrank 2 {\nsend 11b to 0\n}\n",
                            test_params(100, 10, 5, 3, 0, 1u << 30));
    CHECK(t.loggopsim == 190);
    CHECK(t.jobsentry == 185);
}

TEST_CASE("models: rendezvous without a handshake in LogGOPSim", "[simulator][loggopsim]") {
    // 11 bytes > S = 8, O=2 G=1: (s-1)O = 20, (s-1)G = 10. LogGOPSim sends the
    // data at once: at rank 1 at 110, received until 110 + 10 + 20 = 140; the
    // send completes at the match (110). The project: request, clear-to-send,
    // data: 360 (docs/simulator.md, worked cases).
    const std::string pair = "num_ranks 2\nrank 0 {\nsend 11b to 1\n}\nrank 1 {\nrecv 11b from 0\n}\n";
    BothModels t = run_both(pair, small_params(8));
    CHECK(t.loggopsim == 140);
    CHECK(t.jobsentry == 360);
    // The send is held until its receive is posted: rank 1 computes 500 first.
    // LogGOPSim: the message takes rank 1's CPU at 500 (until 530), the
    // receive posted at 500 matches it, the send completes at 500 and rank
    // 0's calc runs 500..600. The project: the request waits, the
    // clear-to-send leaves at 510, arrives at 610, the data leaves 610..640,
    // the calc runs 640..740, the receive ends at 720 + 30 = 750.
    t = run_both("num_ranks 2\nrank 0 {\nl1: send 11b to 1\nl2: calc 100\nl2 requires l1\n}\n"
                 "rank 1 {\nl1: calc 500\nl2: recv 11b from 0\nl2 requires l1\n}\n",
                 small_params(8));
    CHECK(t.loggopsim == 600);
    CHECK(t.jobsentry == 750);
}

TEST_CASE("models: LogGOPSim receives on the CPU numbered as the send's cpu", "[simulator][loggopsim]") {
    // Rank 1 computes 1000 on CPU 1 and receives on CPU 0 a message sent from
    // rank 0's CPU 1. The project receives on CPU 0: 110..120, makespan 1000.
    // LogGOPSim charges the message to rank 1's CPU 1, busy until 1000: 1010.
    BothModels t = run_both("num_ranks 2\nrank 0 {\nsend 1b to 1 cpu 1\n}\n"
                            "rank 1 {\ncalc 1000 cpu 1\nrecv 1b from 0 cpu 0\n}\n",
                            small_params(8));
    CHECK(t.loggopsim == 1010);
    CHECK(t.jobsentry == 1000);
}

TEST_CASE("models: a deadlock is named under the LogGOPSim model too", "[simulator][loggopsim]") {
    std::istringstream in("num_ranks 2\nrank 0 {\nsend 1b to 1 tag 0\n}\nrank 1 {\nrecv 1b from 0 tag 1\n}\n");
    Schedule s = read_goal(in, "dl.goal");
    CHECK_THAT(simulate_loggopsim(s, small_params(8)).error,
               Catch::Contains("deadlocked (LogGOPSim model): 1 operations never completed; e.g. rank 1 waits for a "
                               "message from rank 0 with tag 1"));
}
