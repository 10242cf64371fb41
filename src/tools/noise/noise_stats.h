// Statistics of one PU's detour trace: overhead, count, frequency, max /
// median / p99 and a log-scale histogram. Pure arithmetic on nanoseconds (no
// clocks, no threads), so every figure is unit-tested (tests/unit/test_noise.cpp).
#pragma once

#include <cstdint>
#include <vector>

namespace jobsentry {

struct Detour {
    uint64_t start_ns;     // from the start of the PU's measurement
    uint64_t duration_ns;  // the whole iteration that took longer than the threshold
};

// Log-scale histogram: kBinsPerOctave bins per doubling, so one bin spans
// about 19 % (fine enough that a 100 us injected detour has a bin of its own).
constexpr int kBinsPerOctave = 4;

struct HistogramBin {
    uint64_t low_ns;   // inclusive
    uint64_t high_ns;  // exclusive
    uint64_t count;
};

struct DetourStats {
    uint64_t detours = 0;
    double noise_percent = 0;  // time lost to detours, % of the measured time
    double frequency_hz = 0;   // detours per second of measured time
    uint64_t max_ns = 0;
    uint64_t median_ns = 0;
    uint64_t p99_ns = 0;
    std::vector<HistogramBin> histogram;  // non-empty bins, shortest first
};

// Index of the histogram bin holding a duration: floor(4 * log2(ns)), exactly
// (integer arithmetic, no rounding at bin edges).
int histogram_bin(uint64_t ns);
uint64_t histogram_bin_low(int bin);  // smallest duration in that bin

// Nearest-rank percentile (p in (0, 1]) of sorted values; 0 for none.
uint64_t percentile_sorted(const std::vector<uint64_t>& sorted, double p);

// measured_ns: how long the PU was measured (the denominator of overhead and
// frequency).
DetourStats detour_stats(const std::vector<Detour>& detours, uint64_t measured_ns);

}  // namespace jobsentry
