// Reader of the GOAL text format (LogGOPSim's schedule language) in both
// dialects: LogGOPSim's schedgen ends statements with a line end and may add
// `cpu N` / `nic N`; the project's form ends them with ';':
//   num_ranks 2
//   rank 0 {
//   l1: send 8b to 1 tag 0 cpu 1 nic 0
//   l2: calc 1000
//   l2 requires l1
//   }
//   rank 1 { l1: recv 8b from 0 tag 0; }
// `from -1` or `from any` receives from any source, `tag -1` any tag;
// `irequires` waits for the other operation to start rather than complete;
// `//`, `#` and `/* */` are comments. See docs/simulator.md (GOAL).
#pragma once

#include <cstdint>
#include <istream>
#include <string>

#include "tools/simulator/schedule.h"

namespace jobsentry::sim {

// Throws std::runtime_error "NAME:LINE: expected ..., found ...".
// expected_ops (a guess) reserves the op array so that it is not regrown.
Schedule read_goal(std::istream& in, const std::string& name, std::uint64_t expected_ops = 0);
Schedule read_goal_file(const std::string& path);

}  // namespace jobsentry::sim
