// Schedules of collective operations, built as GOAL-like schedules so that
// built-in collectives and GOAL files run through the same engine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/simulator/schedule.h"

namespace jobsentry::sim {

// Rounds of a doubling pattern over p ranks: the smallest k with 2^k >= p.
inline std::uint32_t ceil_log2(std::uint32_t p) {
    std::uint32_t k = 0;
    while ((std::uint64_t{1} << k) < p) ++k;
    return k;
}

struct CollectiveGenerator {
    const char* name;
    Schedule (*make)(std::uint32_t procs, std::uint64_t bytes);
};

// Names accepted by make_collective, in the order --help lists them: the
// project's collectives, then LogGOPSim schedgen's patterns (schedgen_patterns.h).
const std::vector<std::string>& collective_names();

// Throws std::invalid_argument for an unknown name or procs < 2.
Schedule make_collective(const std::string& name, std::uint32_t procs, std::uint64_t bytes);

}  // namespace jobsentry::sim
