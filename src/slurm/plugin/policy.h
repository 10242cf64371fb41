// The plugin's pure half: site policy from plugstack.conf arguments, the
// user's --hang-detect value checked against it, and the supervisor's
// command line. No Slurm calls here, so every rule is unit-tested
// (tests/unit/test_policy.cpp). Nothing in this file throws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/port_range.h"
#include "hang/multinode/node_tree.h"
#include "hang/watch/detection_spec.h"
#include "slurm/plugin/site_spec.h"

namespace jobsentry {

enum class SlurmAction { cancel, requeue, notify, report };

const char* to_string(SlurmAction action);
// "cancel" -> SlurmAction::cancel; false for anything else.
bool parse_action(const std::string& text, SlurmAction* out);

// --hang-detect=slow_requeue=yes|no: the job's consent to slow_action=requeue_exclude.
constexpr const char* kSlowRequeueKey = "slow_requeue";

// What the supervisor does beyond reporting a slow verdict (site key slow_action).
// requeue_exclude: drain, and requeue the job without the slow node(s) where
// the job asked (--hang-detect=slow_requeue=yes) and has been told to
// checkpoint (docs/decision-rule.md §5, "What follows, by site policy").
enum class SlowAction { report, notify, drain, requeue_exclude };
const char* to_string(SlowAction action);
bool parse_slow_action(const std::string& text, SlowAction* out);
std::string slow_action_names();  // "report, notify, drain, requeue_exclude": what error messages accept
bool drains(SlowAction action);    // drain and requeue_exclude set the slow node(s) DRAIN

// Defaults, ranges and help of alpha, interval, ranks and the site's limits:
// hang/watch/detection_spec.h.
struct HangDetectSettings {
    bool enabled = false;
    double alpha = kDetectionOptions[kAlpha].default_value;
    int interval_ms = static_cast<int>(kDetectionOptions[kInterval].default_value);
    int ranks = static_cast<int>(kDetectionOptions[kRanks].default_value);
    int slow_baseline_rounds = static_cast<int>(kDetectionOptions[kSlowBaseline].default_value);
    double cpu_budget_percent = kDetectionOptions[kCpuBudget].default_value;  // the site's alone (cpu_budget=)
    int spin_verify_ms = static_cast<int>(kDetectionOptions[kSpinVerify].default_value);  // the site's alone (spin_verify=)
    SlurmAction action = SlurmAction::cancel;
    bool slow_requeue = false;  // slow_requeue=yes: this job may be requeued without a slow node
};

struct SitePolicy {
    bool default_on = false;      // watch jobs that did not ask
    bool allow_optout = true;     // may users say --hang-detect=off when default=on?
    HangDetectSettings defaults;  // values of keys the user leaves out
    int min_interval_ms = static_cast<int>(kSiteLimits[kMinInterval].default_value);  // users may not sample more often
    int max_ranks = static_cast<int>(kSiteLimits[kMaxRanks].default_value);  // users may not monitor more ranks
    double max_alpha = kSiteLimits[kMaxAlpha].default_value;  // users may not make the test more trigger-happy
    std::vector<SlurmAction> actions{SlurmAction::cancel, SlurmAction::requeue, SlurmAction::notify,
                                     SlurmAction::report};  // actions users may choose
    std::string supervisor;       // absolute path of the jobsentry binary
    std::string report_dir;       // empty: the job's working directory
    std::string state_dir = "/run/jobsentry";      // one pid file per watched job
    std::string log_dir = "/var/log/jobsentry";    // one supervisor log per job
    bool log_samples = false;     // supervisor logs every sample and judgement (--verbose)
    // OS-noise probe at job start (--noise-probe; slurm/plugin/noise_option.h).
    bool noise_probe_on = false;        // probe every job that does not opt out
    int noise_duration_ms = kNoiseDefaultMs;        // a bare --noise-probe, and default=on jobs
    int max_noise_duration_ms = kMaxNoiseDefaultMs;  // users may not hold their job's start longer
    std::string noise_baseline;         // a healthy node's `jobsentry noise --json`; empty: no health check
    double noise_factor = kNoiseFactorDefault;  // that many times the baseline's noise is NOISY
    std::string rma_lib;                // --rma-check's preload module (absolute path)
    PortRange leader_ports;             // multi-node jobs: where leaders listen for node agents
    unsigned agent_fan_in = NodeTree::kDefaultFanIn;  // multi-node jobs: the tree of agents (node_tree.h)
    SlowAction slow_action = SlowAction::report;  // a slow verdict: report only, or drain its node(s) too
    // Checkpoint coordination (--checkpoint; slurm/plugin/checkpoint_option.h).
    double mtbf_s = 0;            // per-node MTBF; 0: not set (no --checkpoint, no JOBSENTRY_MTBF)
    double ckpt_cost_s = 0;       // C guess; 0: not set (then ckpt::kCheckpointCostGuessS)
};

struct PolicyParse {
    SitePolicy policy;
    std::string error;  // non-empty: which argument, what is accepted
};

// plugstack.conf arguments, e.g. {"default=on", "min_interval=200ms"}.
// default_supervisor: the jobsentry binary; the preload module of --rma-check
// defaults to ../lib/libjobsentry-rmacheck.so beside it.
PolicyParse parse_site_policy(const std::vector<std::string>& args, const std::string& default_supervisor);

struct OptionParse {
    HangDetectSettings settings;
    std::string error;  // non-empty: which key, what is accepted
};

// The user's --hang-detect value: nullptr or "" for the bare option,
// otherwise "off", "on" or KEY=VAL pairs separated by commas.
OptionParse parse_hang_detect(const char* value, const SitePolicy& policy);

// What a job that never used the option gets.
HangDetectSettings settings_without_option(const SitePolicy& policy);

// The name of the per-node process of a job in state_dir and log_dir:
// "job_<id>" for the leader (the job's first node), "job_<id>.node<K>" for
// the agent of the job's K-th node (several nodes may share one host in tests).
std::string supervisor_stem(unsigned job_id, unsigned node_index);

// argv of `jobsentry agent` for the job's K-th node (K >= 1).
std::vector<std::string> agent_argv(const SitePolicy& policy, unsigned job_id, unsigned node_index);

// argv (argv[0] first) of `jobsentry supervise` for a job.
std::vector<std::string> supervisor_argv(const SitePolicy& policy, const HangDetectSettings& settings,
                                         unsigned job_id);

// Help text of the option, as sbatch --help shows it.
std::string option_usage(const SitePolicy& policy);

}  // namespace jobsentry
