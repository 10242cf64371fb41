#include "hang/model/slow_verdict.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "hang/model/stack_tree.h"  // format_rank_set

namespace jobsentry {

const char* to_string(SlowStatus s) {
    switch (s) {
        case SlowStatus::learning: return "learning";
        case SlowStatus::no_slow: return "no_slow";
        case SlowStatus::slow: return "slow";
    }
    return "?";
}

const char* to_string(SlowEvidence e) {
    switch (e) {
        case SlowEvidence::waited_for: return "waited_for";
        case SlowEvidence::cpu_starved: return "cpu_starved";
        case SlowEvidence::slow_link: return "slow_link";
        case SlowEvidence::cpu_throttled: return "cpu_throttled";
    }
    return "?";
}

namespace {

std::string describe(const SlowUnit& u) {
    const std::set<int> ranks(u.ranks.begin(), u.ranks.end());
    const std::string rank_text = (ranks.size() == 1 ? "rank " : "ranks ") + format_rank_set(ranks);
    const std::string cause = u.evidence == SlowEvidence::cpu_starved     ? "starved of CPU"
                              : u.evidence == SlowEvidence::slow_link     ? "slow network"
                              : u.evidence == SlowEvidence::cpu_throttled ? "held back by a CPU quota"
                                                                          : "";
    if (u.is_node) return "node " + u.node + " (" + rank_text + (cause.empty() ? "" : ", " + cause) + ")";
    if (u.node.empty()) return cause.empty() ? rank_text : rank_text + " (" + cause + ")";
    return rank_text + " (node " + u.node + (cause.empty() ? "" : ", " + cause) + ")";
}

}  // namespace

std::string slow_summary(const SlowVerdict& v) {
    if (v.status == SlowStatus::learning)
        return "slow verdict undecided: " + std::to_string(std::min(v.rounds, v.baseline_rounds)) + " of " +
               std::to_string(v.baseline_rounds) + " baseline rounds";
    if (v.status == SlowStatus::no_slow)
        return "no slow rank in " + std::to_string(v.rounds) + " rounds" + (v.held_back.empty() ? "" : "; " + v.held_back);
    return "slow: " + slow_units_summary(v);
}

std::string slow_units_summary(const SlowVerdict& v) {
    std::string out;
    for (size_t i = 0; i < v.units.size(); ++i) out += (i ? ", " : "") + describe(v.units[i]);
    char factor[32];
    std::snprintf(factor, sizeof factor, " ~%.2fx", v.job_factor);
    return out + factor;
}

}  // namespace jobsentry
