// Per-rank evidence of a hang: how long each rank has stood still outside MPI.
//
// Real MPI codes make ParaStack's S_out uninformative: ranks that wait for a
// hung peer poll (MPI_Test*/MPI_Iprobe between posts), so their call chains
// keep changing and they sit inside MPI in nearly every sample, hung or not.
// The hung rank itself, though, shows a run of samples in which it stands
// still outside MPI: stopped by a signal, asleep or blocked (no CPU, same
// stack: "frozen"), or looping in one call chain ("spinning"). This model
// judges, for every monitored rank, the length of its current still run
// against what the job's own history says about such samples:
//
//   q_c = F_c + d(n)      F_c = share of the committed rank-samples that were
//                         still of kind c, d(n) ParaStack's margin for the n
//                         committed rank-samples (none below 11: learning);
//   alarm for rank r when m · q_c^k ≤ α, k its still samples so far, m the
//                         monitored ranks (Bonferroni: m ranks are tested
//                         each round), and the run has lasted at least twice
//                         the longest healthy run of that kind seen in this
//                         job (the geometric model alone underrates long
//                         healthy phases; the job's history bounds them).
//
// A run's samples join the history only when it ends (the rank moved), so a
// hang never teaches the model that hanging is normal; a run verified
// healthy sets the "longest healthy" bar. A round in which every sampled rank
// is stopped is a suspended job (scontrol suspend, gang scheduling): not
// evidence, and every run so far is dropped. docs/decision-rule.md §4.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hang/model/progress.h"

namespace jobsentry {

enum class StillKind {
    none,      // moving, or waiting inside MPI
    frozen,    // stopped, or outside MPI with no CPU time and the same stack
    spinning,  // outside MPI, using CPU, in the same call chain
};
const char* to_string(StillKind k);

// What one sample of one rank says: its activity (ProgressTracker) and
// whether its progress signature changed since its previous sample.
StillKind still_kind(Activity activity, bool moved);

struct RankRoundSample {
    int rank = -1;
    StillKind kind = StillKind::none;
    bool moved = true;  // the stack changed since the rank's previous sample (a rank found stopped may have)
    double at = 0;      // when the sample was taken (any monotonic clock, seconds)
};

struct RankAlarm {
    int rank = -1;
    StillKind kind = StillKind::none;
    int streak = 0;            // k
    double q = 1;              // q_c
    double probability = 1;    // m · q_c^k
    double since = 0;          // first sample of the run (the rank was seen in this state from then on)
    double duration = 0;       // last sample - since
    double bar = 0;            // the run must last this long: 2 × longest healthy run of its kind
    bool significant = false;  // probability ≤ α
    bool outlasted = false;    // duration ≥ bar
    // duration ≥ outlier_factor × the longest healthy run of its kind, one
    // having been seen: a spinning run that long stands even while other
    // ranks work (progress.h, judge_still_verification).
    bool outlier = false;
};

struct StillnessConfig {
    double alpha = 0.001;
    double bar_factor = 2.0;       // a run must outlast this many times the longest healthy one
    double outlier_factor = 10.0;  // ... and is an outlier beyond this many times
};

class RankStillnessModel {
public:
    explicit RankStillnessModel(StillnessConfig config = {});

    // One sampling round over the monitored ranks (m = monitored, for the
    // correction). Returns the current run of every rank that is still,
    // judged; a rank raises an alarm when significant and outlasted.
    std::vector<RankAlarm> observe(const std::vector<RankRoundSample>& round, int monitored);

    // A rank left (exited, unreachable): its run is dropped, not learnt.
    void forget(int rank);
    // Every rank was stopped at once: the job is suspended; runs dropped.
    void suspended();
    // Verification found that rank moved after all: its run ends here and
    // its length becomes history (a healthy run: it raises the bar).
    void cleared(int rank);
    // Verification could not confirm the hang for another reason (another
    // rank works on, part of the job cannot be seen): the run goes on, and
    // is judged again only once it has lasted twice as long as now.
    void postpone(int rank);

    double longest_healthy(StillKind kind) const;
    uint64_t history_size() const { return samples_; }
    double q(StillKind kind) const;  // 1 while learning
    bool in_run(int rank) const;     // the rank is in a still run now
    bool any_run() const;

private:
    struct Run {
        StillKind kind = StillKind::none;
        int length = 0;  // still samples
        double since = 0;
        double last = 0;
        double not_before = 0;  // postponed: judged again once duration reaches this
    };
    void commit_run(const Run& run);

    StillnessConfig config_;
    std::map<int, Run> runs_;           // current still run per rank
    std::map<int, double> last_seen_;   // time of each rank's previous sample
    uint64_t samples_ = 0;              // committed rank-samples
    uint64_t still_frozen_ = 0, still_spinning_ = 0;
    double longest_frozen_ = 0, longest_spinning_ = 0;
};

}  // namespace jobsentry
