// The plugstack.conf arguments of jobsentry.so beyond the detection settings
// (those and the site's limits on them: hang/watch/detection_spec.h), written
// once. Each row gives the key, how its value is named, its type, accepted
// range, default and help. The site policy's parser and its error texts
// (policy.cpp), the list of accepted keys, `jobsentry options plugstack` and
// the table of docs/slurm.md come from it (test options_docs).
#pragma once

#include <string>


namespace jobsentry {

enum class SiteValue {
    on_off,       // on | off
    yes_no,       // yes | no
    path,         // an absolute path
    duration,     // with a unit; min_s..max_s
    number,       // a plain number; min_s..max_s are its range
    count,        // a whole number; min_s..max_s are its range
    action,       // one of cancel, requeue, notify, report
    action_list,  // a comma-separated list of those
    port_range,   // FIRST-LAST
    slow_action,  // report | notify | drain | requeue_exclude
};

struct SiteKeySpec {
    const char* key;
    const char* meta;          // the value as the docs name it
    SiteValue type;
    double min_s, max_s;       // durations: the accepted values in seconds (min_s excluded when 0); numbers: the range
    const char* default_text;  // the default as the docs show it
    const char* help;
};

// The OS-noise probe's durations: users' --noise-probe and the site's keys.
inline constexpr int kNoiseMinMs = 100, kNoiseMaxMs = 600000;
inline constexpr int kNoiseDefaultMs = 2000, kMaxNoiseDefaultMs = 30000;  // as default_text says (test_policy.cpp)
// How much noisier than the site's baseline a node is named NOISY (tools/noise/noise_health.h).
inline constexpr double kNoiseFactorDefault = 3, kNoiseFactorMin = 1.5, kNoiseFactorMax = 100;

enum SiteKey { kDefaultOn, kAllowOptout, kAction, kActions, kSupervisor, kReportDir, kStateDir, kLogDir,
               kLeaderPorts, kAgentFanIn, kLogSamples, kNoiseProbe, kNoiseDuration, kMaxNoiseDuration, kNoiseBaseline, kNoiseFactor, kRmaLib, kMtbf,
               kCkptCost, kSlowAction, kSiteKeyCount };
// clang-format off
inline constexpr SiteKeySpec kSiteKeys[kSiteKeyCount] = {
    {"default", "on\\|off", SiteValue::on_off, 0, 0, "`off`",
     "`on`: every job is watched unless it opts out; `off`: only jobs that ask with `--hang-detect`"},
    {"allow_optout", "yes\\|no", SiteValue::yes_no, 0, 0, "`yes`", "with `default=on`, may users say `--hang-detect=off`?"},
    {"action", "A", SiteValue::action, 0, 0, "`cancel`",
     "default action on a verified hang: `cancel`, `requeue`, `notify`, `report`"},
    {"actions", "LIST", SiteValue::action_list, 0, 0, "all four", "the actions users may choose, comma-separated"},
    {"supervisor", "PATH", SiteValue::path, 0, 0, "`<prefix>/bin/jobsentry`", "the supervisor binary (absolute path)"},
    {"report_dir", "DIR", SiteValue::path, 0, 0, "the job's working directory",
     "where reports go; they are written as the job's user, so DIR must be writable by users (e.g. mode 1777)"},
    {"state_dir", "DIR", SiteValue::path, 0, 0, "`/run/jobsentry`", "one pid file per watched job (root only)"},
    {"log_dir", "DIR", SiteValue::path, 0, 0, "`/var/log/jobsentry`",
     "one supervisor log per job, `job_<id>.log` (root only)"},
    {"leader_ports", "FIRST-LAST", SiteValue::port_range, 0, 0, "`7100-7199`",
     "multi-node jobs: TCP ports on which a job's leader (first node) listens for its node agents; open this range "
     "between compute nodes ([multi-node.md](multi-node.md))"},
    {"agent_fan_in", "F", SiteValue::count, 1, 4096, "`32`",
     "multi-node jobs: at most F node agents connect to the leader, and to any agent; in a job of more than F+1 "
     "nodes agents relay for the others, a tree of agents ([multi-node.md](multi-node.md#a-tree-of-agents))"},
    {"log_samples", "yes\\|no", SiteValue::yes_no, 0, 0, "`no`",
     "`yes`: the supervisor logs every sample and judgement (S_out, q, k) in that log, to see why a hang was or was "
     "not claimed"},
    {"noise_probe", "on\\|off", SiteValue::on_off, 0, 0, "`off`",
     "`on`: every job gets the OS-noise probe at its start (users may say `--noise-probe=off`); `off`: only jobs "
     "that ask"},
    {"noise_duration", "DURATION", SiteValue::duration, kNoiseMinMs / 1000.0, kNoiseMaxMs / 1000.0, "`2s`",
     "how long a bare `--noise-probe` (and `noise_probe=on`) measures"},
    {"max_noise_duration", "DURATION", SiteValue::duration, kNoiseMinMs / 1000.0, kNoiseMaxMs / 1000.0, "`30s`",
     "users may not hold their job's start longer"},
    {"noise_baseline", "PATH", SiteValue::path, 0, 0, "not set",
     "a `jobsentry noise --json` result of a healthy node; the probe at job start then names a node whose worst PU "
     "is `noise_factor` times noisier (and half a point more) NOISY in the AdminComment "
     "([noise.md](noise.md#node-health-at-job-start))"},
    {"noise_factor", "K", SiteValue::number, kNoiseFactorMin, kNoiseFactorMax, "`3`",
     "with `noise_baseline`: how many times the baseline's noise makes a node NOISY"},
    {"rma_lib", "PATH", SiteValue::path, 0, 0, "`<prefix>/lib/libjobsentry-rmacheck.so`",
     "the preload module that `--rma-check` puts into the job's tasks"},
    {"mtbf", "DURATION", SiteValue::duration, 0, 1e9, "not set",
     "per-node MTBF (`24h`, `30d`; `jobsentry ckpt mtbf` estimates it from Slurm's node events). Enables "
     "`--checkpoint` and puts `JOBSENTRY_MTBF` into every job's environment, so that applications using "
     "`jobsentry_ckpt.h` checkpoint by the Young/Daly rule ([checkpoint.md](checkpoint.md))"},
    {"ckpt_cost", "DURATION", SiteValue::duration, 0, 1e9, "`60s` (not set)",
     "the guess of one checkpoint's cost C until the application measures it; when set, also `JOBSENTRY_CKPT_COST` "
     "in every job's environment"},
    {"slow_action", "report\\|notify\\|drain\\|requeue_exclude", SiteValue::slow_action, 0, 0, "`report`",
     "on a slow verdict (a rank or node its peers wait for more and more, [decision-rule.md](decision-rule.md#5-the-slow-verdict-srchangmodelslow_rankhcpp)): "
     "`report` says it in the report, the log and the AdminComment; `notify` also sends the job's batch shell "
     "the notify signal (SIGUSR1) once, so that a script that traps it may checkpoint and end or resubmit "
     "itself elsewhere; `drain` also sets the node(s) it names DRAIN, "
     "with a reason naming the job and the evidence, so that they take no new jobs until an administrator looks, "
     "and (with `noise_baseline`) a node the noise probe judges NOISY at job start, before the job's tasks start; "
     "`requeue_exclude` drains and also requeues the job without those nodes where the job asked for it "
     "(`--hang-detect=slow_requeue=yes`, with `--requeue`) and the checkpoint coordination has sent it its "
     "checkpoint signal (`--checkpoint`). Otherwise the job runs on"},
};
// clang-format on

// The values a key accepts, as error messages say them ("on, off",
// "durations from 100ms to 10m with a unit, e.g. 2s").
std::string accepted_values(const SiteKeySpec& spec);

}  // namespace jobsentry
