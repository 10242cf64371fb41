// The --noise-probe option: the user's value checked against the site's
// policy, and the command line of the probe that runs at job start. Pure, no
// Slurm calls (tests/unit/test_policy.cpp). See docs/slurm.md.
#pragma once

#include <string>
#include <vector>

#include "slurm/plugin/policy.h"

namespace jobsentry {

struct NoiseOptionParse {
    int duration_ms = 0;  // 0: no probe
    std::string error;    // non-empty: what was wrong, what is accepted
};

// nullptr or "" for the bare option (the site's noise_duration), "off", or a
// duration with a unit from 100ms to the site's max_noise_duration.
NoiseOptionParse parse_noise_probe(const char* value, const SitePolicy& policy);

// What a job that never used the option gets: the site's duration when
// noise_probe=on, otherwise no probe.
int noise_without_option(const SitePolicy& policy);

// argv of `jobsentry noise-job` for a job.
std::vector<std::string> noise_probe_argv(const SitePolicy& policy, unsigned job_id, int duration_ms);

// How long the plugin waits for that command: the probe, plus calibration,
// libslurm calls and writing the result.
int noise_probe_timeout_ms(int duration_ms);

std::string noise_option_usage(const SitePolicy& policy);

}  // namespace jobsentry
