// The hang detector's options, written once. Each row gives a setting's
// flag on `jobsentry watch` and `jobsentry supervise`, its plugstack.conf key
// (the site's default) and its --hang-detect key (the user's choice), its
// type, default, accepted range, unit and help. From this table come the
// command-line description and range checks (detection_options.cpp), the
// plugin's parsing of both keys, the supervisor's argv and the sbatch usage
// string (slurm/plugin/policy.cpp), and the option tables of docs/watch.md
// and docs/slurm.md (`jobsentry options`; the test options_docs fails when a
// page and this table differ). Pure: no Boost, no Slurm, so that jobsentry.so
// carries it.
#pragma once

#include <string>

namespace jobsentry {

enum class OptionType {
    real,         // a decimal number
    integer,      // a whole number
    duration_ms,  // milliseconds: a number on the command line, a duration with a unit in Slurm's keys
    flag,         // present or not (command line only)
};

struct OptionSpec {
    const char* cli;       // flag of watch and supervise without "--"; "" when none
    const char* site_key;  // plugstack.conf key; "" when none
    const char* user_key;  // --hang-detect key; "" when none
    OptionType type;
    double default_value;
    double min, max;       // the accepted values: min <= v <= max, or < where open; none when max == min
    bool min_open, max_open;
    const char* at_least;  // the other option this one may not be below ("" when none)
    const char* meta;      // the value's name in the docs: A, I, N
    const char* help;
};

// The detection settings, in the order --help and the docs show them.
enum DetectionOption { kAlpha, kInterval, kMaxInterval, kRanks, kVerifyRounds, kSpinVerify, kSlowBaseline,
                       kSlowAlpha, kCpuBudget, kSeed, kVerbose, kDetectionOptionCount };
// clang-format off
inline constexpr OptionSpec kDetectionOptions[kDetectionOptionCount] = {
    {"alpha", "alpha", "alpha", OptionType::real, 0.001, 0, 0.5, true, true, "", "A",
     "significance level: claim a hang when the run of suspicious samples has probability q^k <= A"},
    {"interval-ms", "interval", "interval", OptionType::duration_ms, 400, 10, 60000, false, false, "", "I",
     "initial sampling interval; pauses are rand(I) + I/2, doubled when samples are not random"},
    {"max-interval-ms", "", "", OptionType::duration_ms, 6400, 10, 600000, false, false, "interval-ms", "M",
     "cap for the doublings of I (under Slurm: 16 I)"},
    {"ranks", "ranks", "ranks", OptionType::integer, 10, 1, 4096, false, false, "", "N",
     "ranks monitored per round, chosen at random; the others are visited in turn, 2 at a time, for the per-rank "
     "evidence; verification samples all"},
    {"verify-rounds", "", "", OptionType::integer, 5, 2, 50, false, false, "", "V",
     "fresh samples of every rank before a hang is confirmed"},
    // 60 s: a healthy rank may compute alone in one function for tens of seconds while every other rank
    // waits (a serial setup or output step); 5 s cancelled a 20-s phase of dgemm_phase. docs/decision-rule.md.
    {"spin-verify-ms", "spin_verify", "", OptionType::duration_ms, 60000, 0, 600000, false, false, "", "S",
     "then, for suspects computing outside MPI, watch them every 100 ms until each has run S of CPU time in one call "
     "chain (the longest a healthy rank may compute alone in one function while the others wait); a change of "
     "function clears the alarm, and so does a suspect that has not run S of CPU within 10 x S of wall time "
     "(starved: nothing is known yet); 0: no watch, confirmed at once"},
    {"slow-baseline-rounds", "slow_baseline_rounds", "slow_baseline_rounds", OptionType::integer, 300, 32, 100000, false, false, "", "B",
     "slow verdict: the job's first B sampling rounds (taken 0.2 s apart at least) are its baseline; a rank or node "
     "its peers wait for more often than then is named slow (docs/decision-rule.md §5)"},
    {"slow-alpha", "", "", OptionType::real, 0.0001, 0, 0.5, true, true, "", "P",
     "slow verdict: significance level per look (every 4 rounds), over every rank, node and window tested"},
    {"cpu-budget", "cpu_budget", "", OptionType::real, 0.1, 0, 10, false, false, "", "C",
     "where the job's ranks keep their CPUs busy, the supervisor's CPU time as a percentage of the job's: healthy "
     "phases are sampled up to 4 times less often until it holds (never a run of suspicious samples or a still "
     "rank); 0: off (docs/watch.md#the-cost-of-watching)"},
    {"seed", "", "", OptionType::integer, 0, 0, 0, false, false, "", "S",  // any value: no range
     "random seed for the rank choice and sampling times; 0 takes one from the clock"},
    {"verbose", "", "", OptionType::flag, 0, 0, 1, false, false, "", "",
     "every sample, its S_out, S_move, each rank's activity and still run, and the models' judgements on stderr, "
     "with each sample's record for bench/model_replay (under Slurm: plugstack.conf log_samples=yes)"},
};

// The site's limits on what users may choose (plugstack.conf only).
enum SiteLimit { kMinInterval, kMaxRanks, kMaxAlpha, kSiteLimitCount };
inline constexpr OptionSpec kSiteLimits[kSiteLimitCount] = {
    {"", "min_interval", "", OptionType::duration_ms, 100, 10, 60000, false, false, "", "DURATION",
     "users may not sample more often"},
    {"", "max_ranks", "", OptionType::integer, 64, 1, 4096, false, false, "", "N",
     "users may not sample more ranks per round"},
    {"", "max_alpha", "", OptionType::real, 0.01, 0, 0.5, true, true, "", "P",
     "users may not make the test more trigger-happy"},
};
// clang-format on

// Whether the option has a range to check and show (flags and the seed do not).
bool has_range(const OptionSpec& o);
// Whether v is among the accepted values (at_least is checked by the caller).
bool in_range(const OptionSpec& o, double v);
// The accepted values as messages and docs say them: "0 < alpha < 0.5", "10..60000",
// "interval-ms..600000"; NAME is how the value is called there.
std::string accepted_range(const OptionSpec& o, const std::string& name);
// A value as users write it for this option: "0.001", "400", and "400ms" in Slurm's keys.
std::string format_value(const OptionSpec& o, double v, bool slurm_key = false);

}  // namespace jobsentry
