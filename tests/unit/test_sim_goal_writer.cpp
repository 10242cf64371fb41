// The GOAL writer: what it writes reads back to the same schedule timing,
// under both models, for every built-in collective and schedgen pattern.
#include "catch_compat.hpp"

#include <sstream>

#include "tools/simulator/collectives.h"
#include "tools/simulator/engine.h"
#include "tools/simulator/goal_reader.h"
#include "tools/simulator/goal_writer.h"
#include "tools/simulator/loggopsim_engine.h"
#include "sim_test_params.h"

using namespace jobsentry::sim;

namespace {

Schedule round_trip(const Schedule& s) {
    std::stringstream text;
    write_goal(s, text);
    return read_goal(text, "written.goal");
}

}  // namespace

TEST_CASE("GOAL writer: collectives read back with the same ops and makespans", "[simulator][goal]") {
    const LogGOPS p = test_params(2500, 1500, 1000, 6, 0, 65535);
    for (const std::string& name : collective_names()) {
        for (std::uint64_t bytes : {8ull, 100000ull}) {
            INFO(name << ", " << bytes << " bytes");
            Schedule built = make_collective(name, 13, bytes);
            Schedule read = round_trip(built);
            CHECK(read.ops.size() == built.ops.size());
            CHECK(read.succ.size() == built.succ.size());
            CHECK(simulate(read, p).makespan == simulate(built, p).makespan);
            CHECK(simulate_loggopsim(read, p).makespan == simulate_loggopsim(built, p).makespan);
        }
    }
}

TEST_CASE("GOAL writer: schedgen's form with placement and any source and tag", "[simulator][goal]") {
    std::istringstream in("num_ranks 2\nrank 1 { a: recv 4b from -1 tag -1 cpu 2; b: calc 7 nic 1; b irequires a; }\n"
                          "rank 0 { send 4b to 1 tag 3 }\n");
    std::stringstream text;
    write_goal(read_goal(in, "in.goal"), text);
    CHECK(text.str() == "num_ranks 2\n\nrank 0 {\nl1: send 4b to 1 tag 3\n}\n\n"
                        "rank 1 {\nl1: recv 4b from -1 tag -1 cpu 2\nl2: calc 7 nic 1\nl2 irequires l1\n}\n");
}

TEST_CASE("GOAL writer: a dependency between ranks is refused", "[simulator][goal]") {
    ScheduleBuilder b(2);
    std::uint32_t a = b.calc(0, 1), c = b.calc(1, 1);
    b.after_end(c, a);
    Schedule s = b.finish();
    std::ostringstream out;
    CHECK_THROWS_WITH(write_goal(s, out), Catch::Contains("a dependency between rank 0 and rank 1"));
}
