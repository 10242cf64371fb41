// How hangs are detected, whatever is watched (a command or a Slurm job).
#pragma once

#include <cstdint>

#include "hang/watch/detection_spec.h"

namespace jobsentry {

// Defaults, ranges and help: detection_spec.h.
struct DetectionSettings {
    double alpha = kDetectionOptions[kAlpha].default_value;
    int interval_ms = static_cast<int>(kDetectionOptions[kInterval].default_value);
    int max_interval_ms = static_cast<int>(kDetectionOptions[kMaxInterval].default_value);
    int ranks = static_cast<int>(kDetectionOptions[kRanks].default_value);
    bool verbose = false;
    uint64_t seed = 0;  // 0: from the clock
    int verify_rounds = static_cast<int>(kDetectionOptions[kVerifyRounds].default_value);
    // extra watch of suspects that compute outside MPI: CPU time they must spin in one chain
    int spin_verify_ms = static_cast<int>(kDetectionOptions[kSpinVerify].default_value);
    // the slow verdict (hang/model/slow_rank.h): its baseline and its level per look
    int slow_baseline_rounds = static_cast<int>(kDetectionOptions[kSlowBaseline].default_value);
    double slow_alpha = kDetectionOptions[kSlowAlpha].default_value;
    // the supervisor's CPU share on a busy node (hang/model/sampling_budget.h); 0: off
    double cpu_budget_percent = kDetectionOptions[kCpuBudget].default_value;
    bool detect = true;         // false: no sampling at all (a supervisor kept only for its job's timer)
};

}  // namespace jobsentry
