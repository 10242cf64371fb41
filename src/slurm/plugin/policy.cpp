#include "slurm/plugin/policy.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/duration.h"
#include "base/text.h"

namespace jobsentry {
namespace {

const OptionSpec& kAlphaSpec = kDetectionOptions[kAlpha];
const OptionSpec& kIntervalSpec = kDetectionOptions[kInterval];
const OptionSpec& kRanksSpec = kDetectionOptions[kRanks];
const int kMaxIntervalMs = static_cast<int>(kIntervalSpec.max);

// The keys of --hang-detect: the spec's, and action.
std::string option_keys() {
    std::string keys = "off, on";
    for (const OptionSpec& o : kDetectionOptions)
        if (o.user_key[0]) keys += std::string(", ") + o.user_key + "=";
    return keys + ", action=";
}

bool parse_action(const std::string& text, SlurmAction* out) {
    for (SlurmAction a : {SlurmAction::cancel, SlurmAction::requeue, SlurmAction::notify, SlurmAction::report})
        if (text == to_string(a)) {
            *out = a;
            return true;
        }
    return false;
}

std::string action_list(const std::vector<SlurmAction>& actions) {
    std::string out;
    for (SlurmAction a : actions) out += (out.empty() ? "" : ", ") + std::string(to_string(a));
    return out;
}

bool on_off(const std::string& value, const char* yes, const char* no, bool* out) {
    if (value == yes) *out = true;
    else if (value == no) *out = false;
    else return false;
    return true;
}

// Applies one KEY=VALUE of the detection settings (shared by the site's
// defaults and the user's option). Returns an error text, empty on success.
std::string apply_setting(const std::string& key, const std::string& value, const SitePolicy& limits,
                          HangDetectSettings* s) {
    if (key == kAlphaSpec.user_key) {
        double a = 0;
        if (!parse_number(value, &a) || !(a > 0) || a > limits.max_alpha)
            return "alpha=" + value + ": accepted values are 0 < alpha <= " + format_number(limits.max_alpha) +
                   " (a smaller alpha claims a hang only after a rarer run of suspicious samples)";
        s->alpha = a;
    } else if (key == kIntervalSpec.user_key) {
        long ms = parse_duration_ms(value);
        if (ms < limits.min_interval_ms || ms > kMaxIntervalMs)
            return "interval=" + value + ": accepted values are durations from " + format_ms(limits.min_interval_ms) +
                   " to " + format_ms(kMaxIntervalMs) + " with a unit, e.g. 400ms, 1s, 1.5s";
        s->interval_ms = static_cast<int>(ms);
    } else if (key == kRanksSpec.user_key) {
        if (!parse_int(value, static_cast<long>(kRanksSpec.min), limits.max_ranks, &s->ranks))
            return "ranks=" + value + ": accepted values are whole numbers from " + format_number(kRanksSpec.min) + " to " +
                   std::to_string(limits.max_ranks) + " (ranks sampled per round)";
    } else if (key == "action") {
        SlurmAction a;
        if (!parse_action(value, &a) || std::find(limits.actions.begin(), limits.actions.end(), a) == limits.actions.end())
            return "action=" + value + ": accepted values are " + action_list(limits.actions);
        s->action = a;
    } else {
        return "unknown key '" + key + "'";
    }
    return {};
}

}  // namespace

const char* to_string(SlurmAction action) {
    switch (action) {
        case SlurmAction::cancel: return "cancel";
        case SlurmAction::requeue: return "requeue";
        case SlurmAction::notify: return "notify";
        case SlurmAction::report: return "report";
    }
    return "?";
}

PolicyParse parse_site_policy(const std::vector<std::string>& args, const std::string& default_supervisor) {
    PolicyParse out;
    SitePolicy& p = out.policy;
    p.supervisor = default_supervisor;
    // Limits first, so that the site's own defaults are checked against them
    // whatever the order of the arguments.
    std::vector<std::pair<std::string, std::string>> settings;
    for (const std::string& arg : args) {
        size_t eq = arg.find('=');
        if (eq == std::string::npos || eq == 0) {
            out.error = "plugstack.conf argument '" + arg + "' is not KEY=VALUE";
            return out;
        }
        const std::string key = arg.substr(0, eq), value = arg.substr(eq + 1);
        auto bad = [&](const std::string& accepted) {
            out.error = "plugstack.conf argument " + arg + ": accepted values are " + accepted;
        };
        auto path = [&](std::string* field) {
            if (value.empty() || value[0] != '/' || value.find("/../") != std::string::npos || value.size() > 1024)
                bad("an absolute path");
            else *field = value;
        };
        if (key == "default") {
            if (!on_off(value, "on", "off", &p.default_on)) bad("on, off");
        } else if (key == "allow_optout") {
            if (!on_off(value, "yes", "no", &p.allow_optout)) bad("yes, no");
        } else if (key == kSiteLimits[kMinInterval].site_key) {
            const OptionSpec& o = kSiteLimits[kMinInterval];
            long ms = parse_duration_ms(value);
            if (ms < 0 || !in_range(o, static_cast<double>(ms)))
                bad("durations from " + format_ms(static_cast<int>(o.min)) + " to " + format_ms(static_cast<int>(o.max)) +
                    " with a unit, e.g. 200ms");
            else p.min_interval_ms = static_cast<int>(ms);
        } else if (key == kSiteLimits[kMaxRanks].site_key) {
            const OptionSpec& o = kSiteLimits[kMaxRanks];
            if (!parse_int(value, static_cast<long>(o.min), static_cast<long>(o.max), &p.max_ranks))
                bad("whole numbers from " + format_number(o.min) + " to " + format_number(o.max));
        } else if (key == kSiteLimits[kMaxAlpha].site_key) {
            const OptionSpec& o = kSiteLimits[kMaxAlpha];
            double a = 0;
            if (!parse_number(value, &a) || !in_range(o, a)) bad(accepted_range(o, o.site_key));
            else p.max_alpha = a;
        } else if (key == "actions") {
            p.actions.clear();
            for (const std::string& name : split(value, ',')) {
                SlurmAction a;
                if (!parse_action(name, &a)) {
                    bad("a comma-separated list of cancel, requeue, notify, report");
                    break;
                }
                if (std::find(p.actions.begin(), p.actions.end(), a) == p.actions.end()) p.actions.push_back(a);
            }
        } else if (key == "supervisor") {
            path(&p.supervisor);
        } else if (key == "report_dir") {
            path(&p.report_dir);
        } else if (key == "state_dir") {
            path(&p.state_dir);
        } else if (key == "log_dir") {
            path(&p.log_dir);
        } else if (key == "noise_probe") {
            if (!on_off(value, "on", "off", &p.noise_probe_on)) bad("on, off");
        } else if (key == "noise_duration" || key == "max_noise_duration") {
            long ms = parse_duration_ms(value);
            if (ms < 100 || ms > 600000) bad("durations from 100ms to 10m with a unit, e.g. 2s");
            else (key == "noise_duration" ? p.noise_duration_ms : p.max_noise_duration_ms) = static_cast<int>(ms);
        } else if (key == "rma_lib") {
            path(&p.rma_lib);
        } else if (key == "mtbf" || key == "ckpt_cost") {
            const double sec = parse_duration_seconds(value);
            if (!(sec > 0) || sec > 1e9) bad("positive durations with a unit ms, s, m, h or d, e.g. 24h, 90s");
            else (key == "mtbf" ? p.mtbf_s : p.ckpt_cost_s) = sec;
        } else if (key == "leader_ports") {
            if (auto ports = parse_port_range(value)) p.leader_ports = *ports;
            else bad("a port range FIRST-LAST within 1024-65535, e.g. 7100-7199");
        } else if (key == "log_samples") {
            if (!on_off(value, "yes", "no", &p.log_samples)) bad("yes, no");
        } else if (key == kAlphaSpec.site_key || key == kIntervalSpec.site_key || key == kRanksSpec.site_key ||
                   key == "action") {
            settings.emplace_back(key, value);
        } else {
            out.error = "unknown plugstack.conf argument '" + key +
                        "'; accepted: default=, allow_optout=, alpha=, interval=, ranks=, action=, min_interval=, "
                        "max_ranks=, max_alpha=, actions=, supervisor=, report_dir=, state_dir=, log_dir=, "
                        "log_samples=, noise_probe=, noise_duration=, max_noise_duration=, rma_lib=, mtbf=, ckpt_cost=, "
                        "leader_ports=";
        }
        if (!out.error.empty()) return out;
    }
    // The built-in defaults must respect the site's limits too.
    p.defaults.interval_ms = std::max(p.defaults.interval_ms, p.min_interval_ms);
    p.defaults.ranks = std::min(p.defaults.ranks, p.max_ranks);
    p.defaults.alpha = std::min(p.defaults.alpha, p.max_alpha);
    if (std::find(p.actions.begin(), p.actions.end(), p.defaults.action) == p.actions.end())
        p.defaults.action = p.actions.front();
    for (const auto& [key, value] : settings) {
        std::string err = apply_setting(key, value, p, &p.defaults);
        if (!err.empty()) {
            out.error = "plugstack.conf argument " + err;
            return out;
        }
    }
    if (p.rma_lib.empty() && !p.supervisor.empty()) {
        const std::string bin = p.supervisor.substr(0, p.supervisor.rfind('/'));
        p.rma_lib = bin.substr(0, bin.rfind('/')) + "/lib/libjobsentry-rmacheck.so";
    }
    if (p.supervisor.empty() || p.supervisor[0] != '/') out.error = "plugstack.conf: supervisor= must be an absolute path";
    else if (p.noise_duration_ms > p.max_noise_duration_ms)
        out.error = "plugstack.conf argument noise_duration=" + format_ms(p.noise_duration_ms) +
                    ": accepted values are at most max_noise_duration (" + format_ms(p.max_noise_duration_ms) + ")";
    return out;
}

HangDetectSettings settings_without_option(const SitePolicy& policy) {
    HangDetectSettings s = policy.defaults;
    s.enabled = policy.default_on;
    return s;
}

OptionParse parse_hang_detect(const char* value, const SitePolicy& policy) {
    OptionParse out;
    out.settings = policy.defaults;
    out.settings.enabled = true;
    const std::string text = value ? value : "";
    // Slurm passes a bare option on to srun inside the job through the
    // environment as the text "(null)".
    if (text.empty() || text == "on" || text == "(null)") return out;
    if (text.size() > 512) {
        out.error = "--hang-detect: value longer than 512 characters";
        return out;
    }
    if (text == "off") {
        if (policy.default_on && !policy.allow_optout)
            out.error = "--hang-detect=off: this site watches every job and does not allow opting out";
        out.settings.enabled = false;
        return out;
    }
    for (const std::string& item : split(text, ',')) {
        if (item == "on") continue;
        if (item == "off") {
            out.error = "--hang-detect: 'off' cannot be combined with other keys";
            return out;
        }
        size_t eq = item.find('=');
        std::string err = eq == std::string::npos
                              ? "unknown key '" + item + "'"
                              : apply_setting(item.substr(0, eq), item.substr(eq + 1), policy, &out.settings);
        if (!err.empty()) {
            if (err.rfind("unknown key", 0) == 0) err += "; accepted keys are " + option_keys();
            out.error = "--hang-detect: " + err;
            return out;
        }
    }
    return out;
}

std::string supervisor_stem(unsigned job_id, unsigned node_index) {
    std::string stem = "job_" + std::to_string(job_id);
    return node_index == 0 ? stem : stem + ".node" + std::to_string(node_index);
}

std::vector<std::string> agent_argv(const SitePolicy& policy, unsigned job_id, unsigned node_index) {
    return {policy.supervisor,
            "agent",
            "--job-id",
            std::to_string(job_id),
            "--node-index",
            std::to_string(node_index),
            "--leader-ports",
            to_string(policy.leader_ports),
            "--pid-file",
            policy.state_dir + "/" + supervisor_stem(job_id, node_index) + ".pid"};
}

std::vector<std::string> supervisor_argv(const SitePolicy& policy, const HangDetectSettings& s, unsigned job_id) {
    // M = 16 I: the doublings of the interval a job gets under Slurm, within the spec's cap.
    const int max_interval = std::min(16 * s.interval_ms, static_cast<int>(kDetectionOptions[kMaxInterval].max));
    const auto flag = [](DetectionOption id) { return std::string("--") + kDetectionOptions[id].cli; };
    std::vector<std::string> argv{policy.supervisor,
                                  "supervise",
                                  "--job-id",
                                  std::to_string(job_id),
                                  flag(kAlpha),
                                  format_number(s.alpha),
                                  flag(kInterval),
                                  std::to_string(s.interval_ms),
                                  flag(kMaxInterval),
                                  std::to_string(max_interval),
                                  flag(kRanks),
                                  std::to_string(s.ranks),
                                  "--action",
                                  to_string(s.action),
                                  "--pid-file",
                                  policy.state_dir + "/" + supervisor_stem(job_id, 0) + ".pid",
                                  "--leader-ports",
                                  to_string(policy.leader_ports)};
    if (!policy.report_dir.empty()) {
        argv.push_back("--report-dir");
        argv.push_back(policy.report_dir);
    }
    if (policy.log_samples) argv.push_back(flag(kVerbose));
    return argv;
}

std::string option_usage(const SitePolicy& policy) {
    const HangDetectSettings& d = policy.defaults;
    return std::string("Detect hung MPI ranks and act (jobsentry). ") +
           (policy.default_on ? "On by default here; =off opts out. " : "") +
           "Keys: " + kAlphaSpec.user_key + "=P (default " + format_number(d.alpha) + ", at most " +
           format_number(policy.max_alpha) + "), " + kIntervalSpec.user_key + "=DURATION (default " +
           format_ms(d.interval_ms) + ", at least " + format_ms(policy.min_interval_ms) + "), " + kRanksSpec.user_key +
           "=N (default " + std::to_string(d.ranks) + ", at most " +
           std::to_string(policy.max_ranks) + "), action=" + action_list(policy.actions) + " (default " +
           to_string(d.action) + ")";
}

}  // namespace jobsentry
