// The noise trace reader of `jobsentry simulate --noise-trace` and of
// `jobsentry noise` (simulator/noise.h): a std::runtime_error naming the line
// for malformed text; otherwise sorted, disjoint detours within the period.
#include <sstream>
#include <stdexcept>

#include "fuzz_common.h"
#include "tools/simulator/noise.h"

FUZZ_TEXT_TARGET(text) {
    std::istringstream in(text);
    try {
        const jobsentry::sim::NoiseTrace t = jobsentry::sim::read_noise_trace(in, "fuzz.tsv");
        for (size_t i = 1; i < t.detours.size(); ++i)
            FUZZ_CHECK(t.detours[i - 1].start + t.detours[i - 1].duration <= t.detours[i].start);
        if (!t.detours.empty()) FUZZ_CHECK(t.detours.back().start + t.detours.back().duration <= t.period);
    } catch (const std::runtime_error&) {
    }
}
