// plugstack.conf arguments (spank/policy.h parse_site_policy, as
// slurm_spank_init calls it): an accepted policy keeps its own defaults
// within its own limits, and everything built from it works.
#include "slurm/plugin/checkpoint_option.h"
#include "fuzz_policy.h"

using namespace jobsentry;

FUZZ_TEXT_TARGET(text) {
    const PolicyParse p = parse_site_policy(fuzz::plugstack_args(text), "/usr/bin/jobsentry");
    if (!p.error.empty()) return;
    const SitePolicy& site = p.policy;
    const HangDetectSettings& d = site.defaults;
    FUZZ_CHECK(d.alpha > 0 && d.alpha <= site.max_alpha);
    FUZZ_CHECK(d.interval_ms >= site.min_interval_ms && d.ranks >= 1 && d.ranks <= site.max_ranks);
    FUZZ_CHECK(site.noise_duration_ms > 0 && site.noise_duration_ms <= site.max_noise_duration_ms);
    FUZZ_CHECK(site.leader_ports.count >= 1);
    const std::vector<int> ports = leader_port_sequence(site.leader_ports, 7);
    for (int port : ports) FUZZ_CHECK(port >= site.leader_ports.first && port < site.leader_ports.first + site.leader_ports.count);
    supervisor_argv(site, settings_without_option(site), 7);
    agent_argv(site, 7, 1);
    checkpoint_environment(site);
    option_usage(site);
}
