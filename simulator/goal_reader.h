// Reader of the GOAL text format (LogGOPSim's schedule language), so that
// schedules written by other tools can be simulated:
//   num_ranks 2
//   rank 0 { l1: send 8b to 1 tag 0; l2: calc 1000; l2 requires l1; }
//   rank 1 { l1: recv 8b from 0 tag 0; }
// `from -1` or `from any` receives from any source; `irequires` waits for the
// other operation to start rather than complete; `//` and `#` start comments.
#pragma once

#include <istream>
#include <string>

#include "schedule.h"

namespace jobsentry::sim {

// Throws std::runtime_error "NAME:LINE: expected ..., found ...".
Schedule read_goal(std::istream& in, const std::string& name);
Schedule read_goal_file(const std::string& path);

}  // namespace jobsentry::sim
