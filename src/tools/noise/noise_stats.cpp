#include "tools/noise/noise_stats.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace jobsentry {

namespace {

// 2^(k/4) for k = 0..3, scaled by 2^32: the sub-octave edges, in fixed point
// so that bin edges are exact integers and identical in both directions.
constexpr uint64_t kEdgeFrac[kBinsPerOctave] = {4294967296ull, 5107605667ull, 6074001000ull, 7223245206ull};

uint64_t edge(int octave, int sub) {
    // 2^octave * 2^(sub/4), rounded up: the smallest integer in the bin.
    unsigned __int128 v = static_cast<unsigned __int128>(kEdgeFrac[sub]) << octave;
    uint64_t whole = static_cast<uint64_t>(v >> 32);
    return (v & 0xffffffffull) ? whole + 1 : whole;
}

}  // namespace

int histogram_bin(uint64_t ns) {
    if (ns == 0) return 0;
    int octave = 63 - __builtin_clzll(ns);
    int sub = kBinsPerOctave - 1;
    while (sub > 0 && ns < edge(octave, sub)) --sub;
    return octave * kBinsPerOctave + sub;
}

uint64_t histogram_bin_low(int bin) {
    if (bin <= 0) return 0;
    return edge(bin / kBinsPerOctave, bin % kBinsPerOctave);
}

uint64_t percentile_sorted(const std::vector<uint64_t>& sorted, double p) {
    if (sorted.empty()) return 0;
    size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(sorted.size())));
    return sorted[std::min(sorted.size(), std::max<size_t>(rank, 1)) - 1];
}

DetourStats detour_stats(const std::vector<Detour>& detours, uint64_t measured_ns) {
    DetourStats s;
    s.detours = detours.size();
    std::vector<uint64_t> durations;
    durations.reserve(detours.size());
    uint64_t lost = 0;
    std::map<int, uint64_t> bins;
    for (const Detour& d : detours) {
        durations.push_back(d.duration_ns);
        lost += d.duration_ns;
        ++bins[histogram_bin(d.duration_ns)];
    }
    std::sort(durations.begin(), durations.end());
    if (measured_ns > 0) {
        // Each duration is rounded to whole ns on its own, so back-to-back
        // detours (a tiny threshold) can sum past the measured time.
        s.noise_percent = std::min(100.0, 100.0 * static_cast<double>(lost) / static_cast<double>(measured_ns));
        s.frequency_hz = static_cast<double>(s.detours) * 1e9 / static_cast<double>(measured_ns);
    }
    s.max_ns = durations.empty() ? 0 : durations.back();
    s.median_ns = percentile_sorted(durations, 0.5);
    s.p99_ns = percentile_sorted(durations, 0.99);
    for (const auto& [bin, count] : bins) s.histogram.push_back({histogram_bin_low(bin), histogram_bin_low(bin + 1), count});
    return s;
}

}  // namespace jobsentry
