// Schedules of collective operations, built as GOAL-like schedules so that
// built-in collectives and GOAL files run through the same engine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "schedule.h"

namespace jobsentry::sim {

// Names accepted by make_collective, in the order --help lists them.
const std::vector<std::string>& collective_names();

// Throws std::invalid_argument for an unknown name or procs < 2.
Schedule make_collective(const std::string& name, std::uint32_t procs, std::uint64_t bytes);

}  // namespace jobsentry::sim
