// Writes a schedule as GOAL text in schedgen's form (one statement a line,
// labels l1, l2, ... in each rank, dependencies after the ops), so that the
// project's collectives can be run by LogGOPSim and large GOAL files can be
// made for benchmarks: `jobsentry simulate ... --write-goal FILE`.
#pragma once

#include <ostream>
#include <string>

#include "tools/simulator/schedule.h"

namespace jobsentry::sim {

// Throws std::runtime_error when a dependency joins two ranks (GOAL cannot say it).
void write_goal(const Schedule& schedule, std::ostream& out);
// Also throws when the file cannot be written.
void write_goal_file(const Schedule& schedule, const std::string& path);

}  // namespace jobsentry::sim
