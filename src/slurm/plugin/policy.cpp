#include "slurm/plugin/policy.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/duration.h"
#include "base/text.h"
#include "slurm/plugin/site_spec.h"

namespace jobsentry {
namespace {

const OptionSpec& kAlphaSpec = kDetectionOptions[kAlpha];
const OptionSpec& kIntervalSpec = kDetectionOptions[kInterval];
const OptionSpec& kRanksSpec = kDetectionOptions[kRanks];
const OptionSpec& kSlowBaselineSpec = kDetectionOptions[kSlowBaseline];
const OptionSpec& kCpuBudgetSpec = kDetectionOptions[kCpuBudget];
const OptionSpec& kSpinVerifySpec = kDetectionOptions[kSpinVerify];
const int kMaxIntervalMs = static_cast<int>(kIntervalSpec.max);

// The keys of --hang-detect: the spec's, and action.
std::string option_keys() {
    std::string keys = "off, on";
    for (const OptionSpec& o : kDetectionOptions)
        if (o.user_key[0]) keys += std::string(", ") + o.user_key + "=";
    return keys + ", action=, " + kSlowRequeueKey + "=";
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
    } else if (key == kSlowBaselineSpec.user_key) {
        if (!parse_int(value, static_cast<long>(kSlowBaselineSpec.min), static_cast<long>(kSlowBaselineSpec.max),
                       &s->slow_baseline_rounds))
            return std::string(kSlowBaselineSpec.user_key) + "=" + value + ": accepted values are whole numbers from " +
                   format_number(kSlowBaselineSpec.min) + " to " + format_number(kSlowBaselineSpec.max) +
                   " (sampling rounds of the job's slow baseline)";
    } else if (key == kSlowRequeueKey) {
        if (!on_off(value, "yes", "no", &s->slow_requeue))
            return std::string(kSlowRequeueKey) + "=" + value + ": accepted values are yes, no";
        if (s->slow_requeue && limits.slow_action != SlowAction::requeue_exclude)
            return std::string(kSlowRequeueKey) + "=yes: this site does not requeue jobs on a slow verdict (its slow_action is " +
                   to_string(limits.slow_action) + ")";
    } else if (key == kSiteKeys[kAction].key) {
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

bool parse_action(const std::string& text, SlurmAction* out) {
    for (SlurmAction a : {SlurmAction::cancel, SlurmAction::requeue, SlurmAction::notify, SlurmAction::report})
        if (text == to_string(a)) {
            *out = a;
            return true;
        }
    return false;
}

constexpr SlowAction kSlowActions[] = {SlowAction::report, SlowAction::notify, SlowAction::drain,
                                       SlowAction::requeue_exclude};

const char* to_string(SlowAction action) {
    switch (action) {
        case SlowAction::report: return "report";
        case SlowAction::notify: return "notify";
        case SlowAction::drain: return "drain";
        case SlowAction::requeue_exclude: return "requeue_exclude";
    }
    return "report";
}

bool drains(SlowAction action) { return action == SlowAction::drain || action == SlowAction::requeue_exclude; }

bool parse_slow_action(const std::string& text, SlowAction* out) {
    for (SlowAction a : kSlowActions)
        if (text == to_string(a)) {
            *out = a;
            return true;
        }
    return false;
}

std::string slow_action_names() {
    std::string names;
    for (SlowAction a : kSlowActions) names += (names.empty() ? "" : ", ") + std::string(to_string(a));
    return names;
}

const char* to_string(SlurmAction action) {
    switch (action) {
        case SlurmAction::cancel: return "cancel";
        case SlurmAction::requeue: return "requeue";
        case SlurmAction::notify: return "notify";
        case SlurmAction::report: return "report";
    }
    return "?";
}

namespace {

// The values of the row's type: switches, paths, durations in seconds.
bool parse_switch(const SiteKeySpec& spec, const std::string& value, bool* out) {
    return spec.type == SiteValue::on_off ? on_off(value, "on", "off", out) : on_off(value, "yes", "no", out);
}
bool parse_path(const std::string& value, std::string* out) {
    if (value.empty() || value[0] != '/' || value.find("/../") != std::string::npos || value.size() > 1024) return false;
    *out = value;
    return true;
}
bool parse_seconds(const SiteKeySpec& spec, const std::string& value, double* out) {
    const double sec = parse_duration_seconds(value);
    if (!(sec > 0) || sec < spec.min_s || sec > spec.max_s) return false;
    *out = sec;
    return true;
}
bool parse_ms(const SiteKeySpec& spec, const std::string& value, int* out) {
    double sec = 0;
    if (!parse_seconds(spec, value, &sec)) return false;
    *out = static_cast<int>(std::lround(sec * 1000));
    return true;
}
bool parse_actions(const std::string& value, std::vector<SlurmAction>* out) {
    out->clear();
    for (const std::string& name : split(value, ',')) {
        SlurmAction a;
        if (!parse_action(name, &a)) return false;
        if (std::find(out->begin(), out->end(), a) == out->end()) out->push_back(a);
    }
    return !out->empty();
}

// One site key (not "action", which waits for the limits) into its field.
bool apply_site_key(SiteKey id, const std::string& value, SitePolicy* p) {
    const SiteKeySpec& spec = kSiteKeys[id];
    switch (id) {
        case kDefaultOn: return parse_switch(spec, value, &p->default_on);
        case kAllowOptout: return parse_switch(spec, value, &p->allow_optout);
        case kLogSamples: return parse_switch(spec, value, &p->log_samples);
        case kNoiseProbe: return parse_switch(spec, value, &p->noise_probe_on);
        case kActions: return parse_actions(value, &p->actions);
        case kSupervisor: return parse_path(value, &p->supervisor);
        case kReportDir: return parse_path(value, &p->report_dir);
        case kStateDir: return parse_path(value, &p->state_dir);
        case kLogDir: return parse_path(value, &p->log_dir);
        case kRmaLib: return parse_path(value, &p->rma_lib);
        case kNoiseDuration: return parse_ms(spec, value, &p->noise_duration_ms);
        case kMaxNoiseDuration: return parse_ms(spec, value, &p->max_noise_duration_ms);
        case kNoiseBaseline: return parse_path(value, &p->noise_baseline);
        case kNoiseFactor: return parse_number(value, &p->noise_factor) && p->noise_factor >= spec.min_s &&
                                  p->noise_factor <= spec.max_s;
        case kMtbf: return parse_seconds(spec, value, &p->mtbf_s);
        case kCkptCost: return parse_seconds(spec, value, &p->ckpt_cost_s);
        case kSlowAction: return parse_slow_action(value, &p->slow_action);
        case kAgentFanIn: {
            int f = 0;
            if (!parse_int(value, static_cast<long>(spec.min_s), static_cast<long>(spec.max_s), &f)) return false;
            p->agent_fan_in = static_cast<unsigned>(f);
            return true;
        }
        case kLeaderPorts: {
            const auto ports = parse_port_range(value);
            if (ports) p->leader_ports = *ports;
            return ports.has_value();
        }
        case kAction:
        case kSiteKeyCount: break;
    }
    return false;
}

// Every key plugstack.conf accepts, in the order of the docs' table.
std::string site_keys() {
    std::string keys;
    auto add = [&](const char* key) { keys += (keys.empty() ? "" : ", ") + std::string(key) + "="; };
    for (const SiteKeySpec& k : kSiteKeys) add(k.key);
    for (const OptionSpec& o : kDetectionOptions)
        if (o.site_key[0]) add(o.site_key);
    for (const OptionSpec& o : kSiteLimits) add(o.site_key);
    return keys;
}

}  // namespace

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
        // A duration within the spec's range, with a unit.
        auto duration = [&](const OptionSpec& o, const char* example, int* ms_out) {
            long ms = parse_duration_ms(value);
            if (ms < 0 || !in_range(o, static_cast<double>(ms)))
                bad("durations from " + format_ms(static_cast<int>(o.min)) + " to " + format_ms(static_cast<int>(o.max)) +
                    " with a unit, e.g. " + example);
            else *ms_out = static_cast<int>(ms);
        };
        int site = kSiteKeyCount;
        for (int id = 0; id < kSiteKeyCount; ++id)
            if (key == kSiteKeys[id].key) site = id;
        if (site == kAction || key == kAlphaSpec.site_key || key == kIntervalSpec.site_key ||
            key == kRanksSpec.site_key || key == kSlowBaselineSpec.site_key) {
            settings.emplace_back(key, value);
        } else if (site != kSiteKeyCount) {
            if (!apply_site_key(static_cast<SiteKey>(site), value, &p)) bad(accepted_values(kSiteKeys[site]));
        } else if (key == kSiteLimits[kMinInterval].site_key) {
            duration(kSiteLimits[kMinInterval], "200ms", &p.min_interval_ms);
        } else if (key == kSiteLimits[kMaxRanks].site_key) {
            const OptionSpec& o = kSiteLimits[kMaxRanks];
            if (!parse_int(value, static_cast<long>(o.min), static_cast<long>(o.max), &p.max_ranks))
                bad("whole numbers from " + format_number(o.min) + " to " + format_number(o.max));
        } else if (key == kCpuBudgetSpec.site_key) {  // the site's alone: not in apply_setting, which users reach
            double budget = 0;
            if (!parse_number(value, &budget) || !in_range(kCpuBudgetSpec, budget))
                bad(accepted_range(kCpuBudgetSpec, kCpuBudgetSpec.site_key));
            else p.defaults.cpu_budget_percent = budget;
        } else if (key == kSpinVerifySpec.site_key) {  // the site's alone: a code's longest one-function phase
            duration(kSpinVerifySpec, "120s", &p.defaults.spin_verify_ms);
        } else if (key == kSiteLimits[kMaxAlpha].site_key) {
            const OptionSpec& o = kSiteLimits[kMaxAlpha];
            double a = 0;
            if (!parse_number(value, &a) || !in_range(o, a)) bad(accepted_range(o, o.site_key));
            else p.max_alpha = a;
        } else {
            out.error = "unknown plugstack.conf argument '" + key + "'; accepted: " + site_keys();
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
            "--fan-in",
            std::to_string(policy.agent_fan_in),
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
                                  to_string(policy.leader_ports),
                                  "--fan-in",
                                  std::to_string(policy.agent_fan_in)};
    if (!policy.report_dir.empty()) {
        argv.push_back("--report-dir");
        argv.push_back(policy.report_dir);
    }
    if (s.slow_baseline_rounds != static_cast<int>(kSlowBaselineSpec.default_value))
        argv.insert(argv.end(), {flag(kSlowBaseline), std::to_string(s.slow_baseline_rounds)});
    if (s.cpu_budget_percent != kCpuBudgetSpec.default_value)
        argv.insert(argv.end(), {flag(kCpuBudget), format_number(s.cpu_budget_percent)});
    if (s.spin_verify_ms != static_cast<int>(kSpinVerifySpec.default_value))
        argv.insert(argv.end(), {flag(kSpinVerify), std::to_string(s.spin_verify_ms)});
    if (policy.log_samples) argv.push_back(flag(kVerbose));
    if (policy.slow_action != SlowAction::report) argv.insert(argv.end(), {"--slow-action", to_string(policy.slow_action)});
    if (s.slow_requeue) argv.push_back("--slow-requeue");
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
           std::to_string(policy.max_ranks) + "), " + kSlowBaselineSpec.user_key + "=N (default " +
           std::to_string(d.slow_baseline_rounds) + "), action=" + action_list(policy.actions) + " (default " +
           to_string(d.action) + ")" +
           (policy.slow_action == SlowAction::requeue_exclude
                ? std::string(", ") + kSlowRequeueKey + "=yes|no (requeue without a slow node, once told to checkpoint)"
                : std::string());
}

}  // namespace jobsentry
