// Predicted slowdown of a barrier (dissemination) and an allreduce (recursive
// doubling) at a few scales for a measured noise trace: what the noise probe's
// report (and a job report) can show next to the trace it measured.
//   nlohmann::json j = predict_noise_slowdown(read_noise_trace_file("cpu0.tsv"));
// or from the command line: jobsentry simulate --predict --noise-trace cpu0.tsv
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/simulator/noise.h"
#include "tools/simulator/params.h"
#include "tools/simulator/schedule.h"

namespace jobsentry::sim {

struct PredictOptions {
    std::vector<std::uint32_t> scales{1024, 16384, 1048576};
    std::uint64_t bytes = 8;
    LogGOPS params;
    std::uint64_t seed = 1;
    bool cosched = false;
};

// {"bytes": 8, "seed": 1, "cosched": false, "params": {...},
//  "predictions": [{"collective": "dissemination", "procs": 1024, "makespan_ns": ...,
//                   "noise_free_makespan_ns": ..., "slowdown": ...}, ...]}
// Cost: two simulations per row; the 1 M-process rows take seconds each and
// about 2 GiB of memory (docs/simulator.md).
nlohmann::json predict_noise_slowdown(const NoiseTrace& trace, const PredictOptions& options = PredictOptions());

// The same for an application's schedule (a GOAL from jobsentry trace-to-goal): {"application": name,
// "procs", "makespan_ns", "noise_free_makespan_ns", "slowdown"}, or {"application", "procs", "error"}
// when it cannot be simulated (a deadlock). options.params and the noise settings apply; not scales, bytes.
nlohmann::json predict_schedule_slowdown(Schedule schedule, const std::string& name, const NoiseTrace& trace,
                                         const PredictOptions& options = PredictOptions());

}  // namespace jobsentry::sim
