// --hang-detect values (spank/policy.h parse_hang_detect, as plugin.cpp calls
// it under a site's policy): whatever is accepted respects the site's limits.
#include "fuzz_policy.h"

using namespace jobsentry;

FUZZ_TEXT_TARGET(text) {
    const fuzz::PolicyAndValue in = fuzz::policy_and_value(text);
    const OptionParse p = parse_hang_detect(in.value.empty() ? nullptr : in.value.c_str(), in.policy);
    if (!p.error.empty() || !p.settings.enabled) return;
    const SitePolicy& site = in.policy;
    FUZZ_CHECK(p.settings.alpha > 0 && p.settings.alpha <= site.max_alpha);
    FUZZ_CHECK(p.settings.interval_ms >= site.min_interval_ms && p.settings.interval_ms <= 60000);
    FUZZ_CHECK(p.settings.ranks >= 1 && p.settings.ranks <= site.max_ranks);
    FUZZ_CHECK(std::find(site.actions.begin(), site.actions.end(), p.settings.action) != site.actions.end());
    FUZZ_CHECK(!supervisor_argv(site, p.settings, 7).empty());
}
