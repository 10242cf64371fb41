// What the probe measured on each PU: plain data, shared by the probe (which
// fills it), the report (JSON, table, traces) and the supervisor.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/noise/noise_stats.h"

namespace jobsentry {

struct PuResult {
    int cpu = -1;               // OS index of the PU
    double resolution_ns = 0;   // shortest loop iteration seen while calibrating
    uint64_t threshold_ns = 0;  // iterations longer than this are detours
    uint64_t measured_ns = 0;   // how long the PU was measured (less than asked when the buffer filled)
    bool buffer_full = false;   // the detour buffer filled and ended this PU's run early
    std::string error;          // non-empty: this PU was not measured (e.g. pinning failed)
    std::vector<Detour> trace;  // every detour, in order
    DetourStats stats;
};

struct ProbeResult {
    std::string clock;          // "tsc" or "clock_gettime"
    double tsc_ghz = 0;         // TSC rate when clock is "tsc"
    uint64_t duration_ns = 0;   // asked for
    std::string cpu_model;      // the node's processor ("model name" of /proc/cpuinfo); "" when unknown
    std::vector<PuResult> pus;  // in the order of the cpus asked for
};

}  // namespace jobsentry
