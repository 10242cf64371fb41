// Feeds the slow verdict's model (hang/model/slow_rank.h) from the watcher's
// sampling rounds and says when its verdict is news. Kept out of the Watcher
// so that the hang path stays as it was: the tracker only reads each round's
// activities and never acts on the job; what is done with a slow verdict is
// the WatchedJob's (a log line, the AdminComment).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "hang/model/slow_rank.h"

namespace jobsentry {

class SlowTracker {
public:
    explicit SlowTracker(SlowRankConfig config) : model_(std::move(config)) {}
    // The name of the watcher's own node (its ranks have RankProcess::node
    // empty), known once the job has started; before any observe().
    void set_local_node(std::string name) { local_node_ = std::move(name); }
    const std::string& local_node() const { return local_node_; }

    struct Sampled {
        int rank = -1;
        std::string node;  // RankProcess::node: "" on the watcher's own node
        Activity activity = Activity::in_mpi;
        bool sched_known = false;  // StackSample::main_run_ns, main_wait_ns
        uint64_t run_ns = 0, wait_ns = 0;
        int64_t throttled = -1;    // RankState::throttled
        bool moved = true;         // RankState::moved
        double stop_seconds = 0;   // RankState::stop_seconds (0: unknown)
    };
    // One sampling round of the ranks sampled in it (visitors included),
    // taken at unix time `at`. Rounds in which the whole job is suspended
    // must not be fed (the watcher skips them).
    // links: the nodes' link readings taken with this round (model/link_rtt.h; the watcher's own
    // node as ""), none in most rounds. output_bytes: SlowRound::output_bytes. Returns true when this
    // round was a look.
    bool observe(double at, const std::vector<Sampled>& ranks, const std::map<std::string, double>& links = {},
                 int64_t output_bytes = -1);
    // --verbose: "slow look: no slow rank in 400 rounds; p x tests 0.31; inflation 3.2".
    std::string look_line() const;

    // What is new since the last call, as one line for the log, or "":
    // the baseline completed, or the verdict turned slow or named other
    // ranks or nodes than before.
    std::string news();
    // The verdict now (latched once slow: slow_rank.h).
    const SlowVerdict& verdict() const { return model_.verdict(); }
    bool baseline_complete() const { return model_.baseline_complete(); }

private:
    SlowRankModel model_;
    std::string local_node_ = "node";
    bool baseline_told_ = false;
    std::vector<int> told_ranks_;
    std::vector<std::string> told_nodes_;
};

// "slow: rank 2 (node n1) ~1.31x; compute 1.62x slower than its peers since
// 2026-11-28T05:02:11Z; p = 3.1e-09 <= alpha 1e-04 (Bonferroni over 20 tests)":
// the log's line and the report's reason.
std::string slow_evidence_line(const SlowVerdict& v);

}  // namespace jobsentry
