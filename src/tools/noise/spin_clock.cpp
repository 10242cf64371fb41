#include "tools/noise/spin_clock.h"

#include <fstream>
#include <sstream>

#if JOBSENTRY_HAVE_TSC
#include <cpuid.h>
#endif

namespace jobsentry {

namespace {

bool cpuinfo_has_flags(const std::string& a, const std::string& b) {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("flags", 0) != 0) continue;
        std::istringstream words(line);
        bool has_a = false, has_b = false;
        for (std::string w; words >> w;) {
            has_a = has_a || w == a;
            has_b = has_b || w == b;
        }
        return has_a && has_b;  // the first CPU's flags speak for all
    }
    return false;
}

#if JOBSENTRY_HAVE_TSC
struct Pair {
    uint64_t tsc;
    uint64_t mono_ns;
};

Pair close_pair() {
    Pair best{0, 0};
    uint64_t best_width = UINT64_MAX;
    for (int i = 0; i < 50; ++i) {
        uint64_t before = monotonic_ns();
        uint64_t tsc = TscClock::now();
        uint64_t after = monotonic_ns();
        if (after - before < best_width) {
            best_width = after - before;
            best = {tsc, before + (after - before) / 2};
        }
    }
    return best;
}
#endif

}  // namespace

bool tsc_is_invariant() {
#if JOBSENTRY_HAVE_TSC
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8))) return true;
    return cpuinfo_has_flags("constant_tsc", "nonstop_tsc");
#else
    return false;
#endif
}

double calibrate_tsc_ticks_per_ns(uint64_t span_ns) {
#if JOBSENTRY_HAVE_TSC
    Pair first = close_pair();
    while (monotonic_ns() - first.mono_ns < span_ns) {
    }
    Pair last = close_pair();
    return static_cast<double>(last.tsc - first.tsc) / static_cast<double>(last.mono_ns - first.mono_ns);
#else
    (void)span_ns;
    return 1.0;
#endif
}

}  // namespace jobsentry
