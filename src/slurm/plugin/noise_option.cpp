#include "slurm/plugin/noise_option.h"
#include "base/duration.h"
#include "base/text.h"
#include "slurm/plugin/site_spec.h"

namespace jobsentry {
NoiseOptionParse parse_noise_probe(const char* value, const SitePolicy& policy) {
    NoiseOptionParse out;
    const std::string text = value && std::string(value) != "(null)" ? value : "";  // srun passes "(null)"
    if (text.empty()) {
        out.duration_ms = policy.noise_duration_ms;
    } else if (text == "off") {
        out.duration_ms = 0;
    } else {
        long ms = parse_duration_ms(text);
        if (ms < kNoiseMinMs || ms > policy.max_noise_duration_ms)
            out.error = "--noise-probe=" + text + ": accepted values are off or a duration from " + format_ms(kNoiseMinMs) + " to " +
                        format_ms(policy.max_noise_duration_ms) + " with a unit, e.g. 2s";
        else out.duration_ms = static_cast<int>(ms);
    }
    return out;
}

int noise_without_option(const SitePolicy& policy) { return policy.noise_probe_on ? policy.noise_duration_ms : 0; }

std::vector<std::string> noise_probe_argv(const SitePolicy& policy, unsigned job_id, int duration_ms) {
    std::vector<std::string> argv{policy.supervisor, "noise-job", "--job-id", std::to_string(job_id),
                                  "--duration-ms", std::to_string(duration_ms)};
    if (!policy.report_dir.empty()) {
        argv.push_back("--report-dir");
        argv.push_back(policy.report_dir);
    }
    if (!policy.noise_baseline.empty()) {
        argv.insert(argv.end(), {"--baseline", policy.noise_baseline, "--noise-factor", format_number(policy.noise_factor)});
        if (policy.slow_action == SlowAction::drain) argv.push_back("--drain-noisy");
    }
    return argv;
}

int noise_probe_timeout_ms(int duration_ms) { return duration_ms + 15000; }

std::string noise_option_usage(const SitePolicy& policy) {
    return "Measure the OS noise of the job's PUs at job start (jobsentry), for DURATION (default " +
           format_ms(policy.noise_duration_ms) + ", at most " + format_ms(policy.max_noise_duration_ms) + ")" +
           (policy.noise_probe_on ? "; on by default here, =off opts out" : "");
}

}  // namespace jobsentry
