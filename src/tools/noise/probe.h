// The selfish-detour probe as a library call: one thread per PU, pinned with
// hwloc, spins on a serialised clock read and records every iteration longer
// than the threshold. `jobsentry noise` and the supervisor (at job start) call
// run_noise_probe(); check_noise_cpus() validates a CPU list beforehand.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tools/noise/probe_result.h"
#include "tools/noise/spin_clock.h"

namespace jobsentry {

struct ProbeSettings {
    std::vector<int> cpus;            // OS indexes of the PUs to probe (see check_noise_cpus)
    uint64_t duration_ns = 5000000000ull;
    uint64_t threshold_ns = 0;        // 0: threshold_factor x each PU's resolution
    double threshold_factor = 9;
    size_t max_detours = 1u << 18;    // per PU; preallocated (16 bytes each)
    ClockChoice clock = ClockChoice::automatic;
    // Run on each probe thread just before and just after its measurement
    // (after pinning and calibration). Empty in production; the noise
    // injector of tests/programs/noise_inject.cpp arms a per-thread timer here.
    std::function<void(int cpu)> before_measure;
    std::function<void(int cpu)> after_measure;
};

// "all" or "0,2-3" against the PUs of this machine and the set this thread
// may run on; *cpus gets the list. "" on success, otherwise what was wrong.
std::string check_noise_cpus(const std::string& list, std::vector<int>* cpus);

// Measures every PU of settings.cpus at once for settings.duration_ns.
// A PU whose thread cannot be pinned gets an error and no figures.
ProbeResult run_noise_probe(const ProbeSettings& settings);

}  // namespace jobsentry
