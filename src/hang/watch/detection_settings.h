// How hangs are detected, whatever is watched (a command or a Slurm job).
#pragma once

#include <cstdint>

namespace jobsentry {

struct DetectionSettings {
    double alpha = 0.001;
    int interval_ms = 400;
    int max_interval_ms = 6400;
    int ranks = 10;
    bool verbose = false;
    uint64_t seed = 0;          // 0: from the clock
    int verify_rounds = 5;
    int spin_verify_ms = 5000;  // extra watch of suspects that compute outside MPI: CPU time they must spin in one chain
    bool detect = true;         // false: no sampling at all (a supervisor kept only for its job's timer)
};

}  // namespace jobsentry
