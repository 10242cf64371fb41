// The GOAL schedule reader of `jobsentry simulate --goal` (simulator/goal_reader.h):
// malformed text is a std::runtime_error naming the line, nothing else.
#include <sstream>
#include <stdexcept>

#include "fuzz_common.h"
#include "tools/simulator/goal_reader.h"

FUZZ_TEXT_TARGET(text) {
    std::istringstream in(text);
    try {
        const jobsentry::sim::Schedule s = jobsentry::sim::read_goal(in, "fuzz.goal");
        FUZZ_CHECK(s.num_ranks >= 2);
    } catch (const std::runtime_error&) {
    }
}
