// OS noise for the simulator: a trace of detours (start_ns<TAB>duration_ns
// lines, as `jobsentry noise --trace-dir` writes them) that repeats with the
// trace's span as period. Each rank reads the trace from its own offset
// (seeded), or all ranks from one offset (co-scheduled noise). A CPU activity
// of w ns starting at t ends when w ns of time outside detours have passed.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "tools/simulator/params.h"

namespace jobsentry::sim {

struct Detour {
    Time start;
    Time duration;
};

struct NoiseTrace {
    std::vector<Detour> detours;  // sorted by start, not overlapping
    Time period = 0;              // the trace repeats after this many ns
};

// Reads a trace; throws std::runtime_error naming `name`, the line and what
// was expected. Overlapping detours are merged; the period is the end of the
// last detour unless a line `# period_ns N` says otherwise.
NoiseTrace read_noise_trace(std::istream& in, const std::string& name);
NoiseTrace read_noise_trace_file(const std::string& path);

class Noise {
public:
    Noise() = default;  // no noise
    // Per-rank offsets from splitmix64(seed, rank), or one offset for all.
    Noise(NoiseTrace trace, std::uint64_t seed, bool cosched);
    // Explicit offsets (tests): rank r reads the trace from offsets[r].
    Noise(NoiseTrace trace, std::vector<Time> offsets);

    bool active() const { return !trace_.detours.empty(); }
    // End of `work` ns of CPU time on `rank` started at `t`.
    Time advance(std::uint32_t rank, Time t, Time work) const {
        return active() ? advance_noisy(rank, t, work) : t + work;
    }
    Time offset(std::uint32_t rank) const;

private:
    Time advance_noisy(std::uint32_t rank, Time t, Time work) const;
    NoiseTrace trace_;
    std::uint64_t seed_ = 0;
    bool cosched_ = false;
    std::vector<Time> offsets_;
};

}  // namespace jobsentry::sim
