// The slow verdict: which ranks or nodes make a running job slow, since when,
// what it costs, and how sure that is (slow_rank.h decides it). Plain data and
// its one-line summary, for the report, the log and the job's annotation.
#pragma once

#include <string>
#include <vector>

namespace jobsentry {

enum class SlowStatus {
    learning,  // the job's baseline (its first rounds) or the shortest recent window is not complete yet
    no_slow,   // looked, nothing significant
    slow,
};
const char* to_string(SlowStatus s);

// What made a unit slow (slow_rank.h): its peers waited for it inside MPI, it waited for a CPU, or
// (a node) its network round trips grew beyond the other nodes'; or a CPU quota of its own cgroup
// held it back while its peers' did not.
enum class SlowEvidence { waited_for, cpu_starved, slow_link, cpu_throttled };
const char* to_string(SlowEvidence e);

// One rank or one node found slow, with its evidence.
struct SlowUnit {
    std::string node;        // the node (node units; and the rank's node, when known)
    std::vector<int> ranks;  // the rank, or the node's ranks found slow
    bool is_node = false;
    SlowEvidence evidence = SlowEvidence::waited_for;
    double baseline_share = 0;  // share of its rounds in which its peers waited for it (or it was starved), at baseline
    double recent_share = 0;    // ... in the recent window that decided
    int window = 0;             // rounds in that window
    double p_value = 1;         // Fisher's one-sided exact p, before the correction
    double compute_factor = 1;  // how much slower it computes than its peers, against the baseline ratio
                                // (cpu_starved: how much less CPU it gets of its runnable time;
                                // cpu_throttled: how much slower its job runs, from the peers' waiting)
    double cpu_share = 0;       // cpu_starved: of its runnable time, the share it ran since `since`
    double peers_cpu_share = 0;  // ... and its peers' share
    double since = 0;           // the round at which its share changed (the caller's clock)
    double link_ms = 0;          // slow_link: the node's median round trip since `since`, in ms
    double baseline_link_ms = 0;  // ... at baseline
};

struct SlowVerdict {
    SlowStatus status = SlowStatus::learning;
    std::vector<SlowUnit> units;     // the ranks and nodes named, nodes first
    std::vector<int> slow_ranks;     // every rank named, alone or through its node
    std::vector<std::string> slow_nodes;
    double since = 0;                // the earliest change among the units
    double job_factor = 1;           // the job runs about this many times slower than at baseline
    // What job_factor comes from: the ranks' compute rates (CPU seconds a second that their samples
    // show computing), summed over the ranks timed at baseline and since the change (the factor is
    // the median of the ranks' own ratios); both 0 where fewer than two ranks are timed (no
    // schedstat) and the peers' waiting share is used instead.
    double compute_rate_before = 0, compute_rate_now = 0;
    // Where the compute rates rest on too few computing samples (fewer than two ranks with
    // kMinComputingSamples at baseline: a code that spends nearly all its time inside MPI), a
    // rank starved of CPU gives the job factor by its own CPU share, at baseline over since
    // ("cpu_share"); else "on_cpu_compute_rates" (each rank's computing share from its samples taken
    // on its CPU, where two ranks or more have kMinComputingSamples of those at baseline),
    // "compute_rates" (from all its samples), or "peers_waiting" where the rates are unknown.
    std::string job_factor_from = "peers_waiting";
    // "output_rate" (first where known): the bytes a second the ranks' launchers relayed at baseline and
    // since, where both are steady measures of the job's pace (slow_rank.cpp, output_rate); 0: not used.
    double output_rate_before = 0, output_rate_now = 0;
    int computing_samples_before = 0;  // the computing samples at baseline of the ranks the rates rest on
    double peers_cpu_before = 0;     // the other ranks' CPU share of their runnable time at baseline (0: unknown)
    double peers_cpu_now = 0;        // ... since the change
    double p_value = 1;              // the smallest unit p, times the tests of that look (Bonferroni), at most 1
                                     // (no_slow looks too: how near they came)
    double threshold = 0;            // the per-test level of that look: alpha / tests
    int tests = 0;                   // units x windows tested at that look
    int rounds = 0;                  // rounds observed so far
    int baseline_rounds = 0;         // of which baseline
    std::string held_back;           // no_slow: units significant at this look whose job was not slower, and why
};

// "slow: node n3 (ranks 12-15) ~1.25x", "slow: rank 2 (node n1) ~1.31x",
// "no slow rank in 400 rounds", "slow verdict undecided: 37 of 300 baseline rounds".
std::string slow_summary(const SlowVerdict& v);
// Its units and job factor alone: "rank 2 (node n1) ~1.31x" (also what a held-back look names).
std::string slow_units_summary(const SlowVerdict& v);

}  // namespace jobsentry
