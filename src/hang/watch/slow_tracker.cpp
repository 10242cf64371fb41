#include "hang/watch/slow_tracker.h"

#include <cstdio>

#include "hang/watch/report_slow.h"

namespace jobsentry {

bool SlowTracker::observe(double at, const std::vector<Sampled>& ranks, const std::map<std::string, double>& links,
                          int64_t output_bytes) {
    SlowRound round{at, {}, {}, output_bytes};
    for (const auto& [node, ms] : links) round.node_link_ms[node.empty() ? local_node_ : node] = ms;
    for (const Sampled& r : ranks) {
        // Nodes are named as the report and Slurm name them: the agents' node, or ours.
        model_.set_node(r.rank, r.node.empty() ? local_node_ : r.node);
        round.ranks.push_back(
            {r.rank, r.activity, r.sched_known, r.run_ns, r.wait_ns, r.throttled, r.moved, r.stop_seconds});
    }
    return model_.observe(round);
}

std::string SlowTracker::look_line() const {
    const SlowVerdict& v = model_.last_look();
    char tail[96];
    std::snprintf(tail, sizeof tail, "; p x tests %.2g; inflation %.2g", v.p_value, model_.rank_inflation());
    return "slow look: " + slow_summary(v) + tail;
}

std::string SlowTracker::news() {
    const SlowVerdict& v = model_.verdict();
    if (v.status == SlowStatus::slow) {
        if (v.slow_ranks == told_ranks_ && v.slow_nodes == told_nodes_) return {};
        told_ranks_ = v.slow_ranks;
        told_nodes_ = v.slow_nodes;
        return slow_evidence_line(v);
    }
    if (!baseline_told_ && v.rounds >= v.baseline_rounds) {
        baseline_told_ = true;
        return "slow verdict: baseline of " + std::to_string(v.baseline_rounds) +
               " rounds complete; from now on a rank or node its peers wait for more than then is named";
    }
    return {};
}

std::string slow_evidence_line(const SlowVerdict& v) {
    if (v.status != SlowStatus::slow) return slow_summary(v);
    char tail[128];
    std::snprintf(tail, sizeof tail, "; p x tests = %.2g <= alpha %.2g (Bonferroni over %d tests)", v.p_value,
                  v.threshold * v.tests, v.tests);
    return slow_summary(v) + "; " + slow_unit_evidence(v.units.front()) + tail;
}

}  // namespace jobsentry
