// --noise-probe values (spank/noise_option.h, as plugin.cpp calls it): an
// accepted duration never exceeds the site's max_noise_duration.
#include "fuzz_policy.h"
#include "slurm/plugin/noise_option.h"

using namespace jobsentry;

FUZZ_TEXT_TARGET(text) {
    const fuzz::PolicyAndValue in = fuzz::policy_and_value(text);
    const NoiseOptionParse p = parse_noise_probe(in.value.empty() ? nullptr : in.value.c_str(), in.policy);
    if (!p.error.empty()) return;
    FUZZ_CHECK(p.duration_ms >= 0 && p.duration_ms <= in.policy.max_noise_duration_ms);
    if (p.duration_ms > 0) FUZZ_CHECK(!noise_probe_argv(in.policy, 7, p.duration_ms).empty());
}
