#include "hang/model/rank_stillness.h"

#include <algorithm>
#include <cmath>

#include "hang/model/parastack.h"  // level_for_sample_size: ParaStack's margins

namespace jobsentry {

const char* to_string(StillKind k) {
    switch (k) {
        case StillKind::none: return "none";
        case StillKind::frozen: return "frozen";
        case StillKind::spinning: return "spinning";
    }
    return "?";
}

StillKind still_kind(Activity activity, bool moved) {
    switch (activity) {
        case Activity::stopped: return StillKind::frozen;  // whatever its stack did before the stop
        case Activity::idle_outside: return StillKind::frozen;
        case Activity::computing: return moved ? StillKind::none : StillKind::spinning;
        case Activity::in_mpi: return StillKind::none;  // waiting (or polling) is not standing still
        case Activity::threads_working: return StillKind::none;  // its threads compute
    }
    return StillKind::none;
}

RankStillnessModel::RankStillnessModel(StillnessConfig config) : config_(config) {}

double RankStillnessModel::longest_healthy(StillKind kind) const {
    return kind == StillKind::frozen ? longest_frozen_ : kind == StillKind::spinning ? longest_spinning_ : 0;
}

double RankStillnessModel::q(StillKind kind) const {
    auto level = level_for_sample_size(samples_);
    if (!level || kind == StillKind::none) return 1;
    const uint64_t still = kind == StillKind::frozen ? still_frozen_ : still_spinning_;
    return std::min(1.0, static_cast<double>(still) / samples_ + level->d);
}

bool RankStillnessModel::in_run(int rank) const { return runs_.count(rank) > 0; }
bool RankStillnessModel::any_run() const { return !runs_.empty(); }

void RankStillnessModel::commit_run(const Run& run) {
    samples_ += run.length;
    (run.kind == StillKind::frozen ? still_frozen_ : still_spinning_) += run.length;
    double& longest = run.kind == StillKind::frozen ? longest_frozen_ : longest_spinning_;
    longest = std::max(longest, run.last - run.since);
}

void RankStillnessModel::forget(int rank) {
    runs_.erase(rank);
    last_seen_.erase(rank);
}

void RankStillnessModel::suspended() { runs_.clear(); }

void RankStillnessModel::cleared(int rank) {
    auto it = runs_.find(rank);
    if (it == runs_.end()) return;
    commit_run(it->second);
    runs_.erase(it);
}

void RankStillnessModel::postpone(int rank) {
    auto it = runs_.find(rank);
    if (it != runs_.end()) it->second.not_before = 2 * std::max(it->second.last - it->second.since, 0.0);
}

std::vector<RankAlarm> RankStillnessModel::observe(const std::vector<RankRoundSample>& round, int monitored) {
    for (const auto& s : round) {
        auto previous = last_seen_.find(s.rank);
        const double seen_before = previous == last_seen_.end() ? s.at : previous->second;
        last_seen_[s.rank] = s.at;
        auto run = runs_.find(s.rank);
        if (run != runs_.end() && run->second.kind != s.kind) {  // ended, or changed kind: a new run
            commit_run(run->second);
            runs_.erase(run);
            run = runs_.end();
        }
        if (s.kind == StillKind::none) {
            ++samples_;
            continue;
        }
        if (run == runs_.end()) {
            // In this state since its previous sample (same stack), or only
            // since now (a rank found stopped elsewhere than last time).
            Run fresh;
            fresh.kind = s.kind;
            fresh.since = s.moved ? s.at : seen_before;
            run = runs_.emplace(s.rank, fresh).first;
        }
        run->second.length += 1;
        run->second.last = s.at;
    }
    std::vector<RankAlarm> out;
    const double tests = std::max(monitored, 1);
    for (const auto& s : round) {
        auto run = runs_.find(s.rank);
        if (run == runs_.end()) continue;
        const Run& r = run->second;
        RankAlarm a;
        a.rank = s.rank;
        a.kind = r.kind;
        a.streak = r.length;
        a.q = q(r.kind);
        a.probability = std::min(1.0, tests * std::pow(a.q, r.length));
        a.since = r.since;
        a.duration = r.last - r.since;
        a.bar = std::max(config_.bar_factor * longest_healthy(r.kind), r.not_before);
        a.significant = a.q < 1 && a.probability <= config_.alpha;
        a.outlasted = a.duration >= a.bar;
        const double longest = longest_healthy(r.kind);
        a.outlier = longest > 0 && a.duration >= config_.outlier_factor * longest;
        out.push_back(a);
    }
    return out;
}

}  // namespace jobsentry
