#include "hang/model/parastack.h"

#include <algorithm>
#include <cmath>

#include "hang/model/runs_test.h"

namespace jobsentry {

std::optional<SampleSizeLevel> level_for_sample_size(uint64_t n) {
    if (n < 11) return std::nullopt;
    if (n < 19) return SampleSizeLevel{0.47, 0.3};
    if (n < 42) return SampleSizeLevel{0.27, 0.2};
    if (n < 86) return SampleSizeLevel{0.12, 0.1};
    return SampleSizeLevel{0.06, 0.05};
}

ParaStackModel::ParaStackModel(ModelConfig config) : config_(config), interval_(config.interval_s) {}

double ParaStackModel::next_delay(std::mt19937_64& rng) const {
    std::uniform_real_distribution<double> jitter(0.0, interval_);
    return jitter(rng) + interval_ / 2;
}

Judgement ParaStackModel::observe(double s_out) {
    Judgement j;
    track_runs(s_out);
    auto level = level_for_sample_size(history_.size());
    if (!level) {
        j.learning = true;
        commit(s_out);
        return j;
    }
    j.threshold = history_.quantile(level->p_hat);
    j.at_most_threshold = Ecdf::at_most(s_out, j.threshold);
    const double observed = std::max(level->p_hat, history_.cdf(j.threshold));
    const double marginal = std::min(1.0, observed + level->d);
    j.q = std::max(marginal, conditional_at_most(j.threshold));
    if (j.q >= 1.0) return observe_uninformative(s_out, *level, j);
    j.suspicion = Ecdf::at_most(s_out, j.threshold);
    if (!j.suspicion) {
        flush_streak();
        commit(s_out);
        return j;
    }
    streak_.push_back(s_out);
    j.streak = static_cast<int>(streak_.size());
    j.probability = std::pow(j.q, j.streak);
    judge_lower_levels(*level, &j);
    judge_long_run(j.threshold, &j);
    j.hang = j.probability <= config_.alpha || j.tight_probability <= config_.alpha || j.long_run;
    return j;
}

Judgement ParaStackModel::observe_uninformative(double s_out, const SampleSizeLevel& level, Judgement j) {
    // Suspicions at t are so common (or so often follow each other) that no
    // run of them could be rare: such a sample says nothing and is learnt.
    // The conditional estimate learns from it too, so q can fall below 1
    // again as the healthy job goes on.
    // A sample strictly below t is rare (F(t-) < p̂): it is held back in a run
    // and tested at its own level, as any run below t is, so a hang that
    // holds S_out below t is still found, and never learnt as normal.
    j.learning = true;
    if (Ecdf::key(s_out) < Ecdf::key(j.threshold)) {
        j.suspicion = true;
        streak_.push_back(s_out);
        j.streak = static_cast<int>(streak_.size());
        judge_lower_levels(level, &j);
        judge_long_run(j.threshold, &j);
        j.hang = j.tight_probability <= config_.alpha || j.long_run;
        return j;
    }
    flush_streak();
    commit(s_out);
    if (j.at_most_threshold) {
        judge_long_run(j.threshold, &j);
        j.hang = j.long_run;
    }
    return j;
}

void ParaStackModel::judge_long_run(double threshold, Judgement* j) const {
    // Learning a run at t is safe only while the run stays like the job's own: a hang at t, learnt,
    // would pin q at 1 for good (a CI run of an MPICH deadlock stayed blind for two minutes), and
    // once q is below 1 again it can sit so near 1 (0.98) that q^k needs
    // hundreds of samples. A run that has outlasted twice every ended run at <= t, and twice the run a
    // verification last cleared, goes to verification; it carries no probability, so only
    // verification (and the watcher's hold for jobs whose ranks still move) stands between it and
    // a verdict.
    const auto above = latest_at_.upper_bound(Ecdf::key(threshold));
    if (above == latest_at_.end()) return;  // nothing above t seen: no run at t could ever end
    const uint64_t run = run_at_most(threshold);
    uint64_t bar = static_cast<uint64_t>(std::max(config_.long_run_min, 1));
    if (auto ended = longest_ended_.find(Ecdf::key(threshold)); ended != longest_ended_.end())
        bar = std::max(bar, 2 * ended->second);
    const uint64_t since_dismissal = observed_ - dismissed_at_;
    if (dismissed_at_ > 0 && run > since_dismissal) bar = std::max(bar, 2 * (run - since_dismissal));
    j->run = static_cast<int>(std::min<uint64_t>(run, INT32_MAX));
    j->run_bar = static_cast<int>(std::min<uint64_t>(bar, INT32_MAX));
    j->long_run = run >= bar;
}

void ParaStackModel::track_runs(double s_out) {
    const uint64_t at = ++observed_;
    const int64_t key = Ecdf::key(s_out);
    // Walking the values downwards, `above` is the latest sample above the value: a run of samples
    // <= v ends now when this sample lies above v.
    uint64_t above = 0;
    for (auto it = latest_at_.rbegin(); it != latest_at_.rend(); ++it) {
        if (it->first < key && at - 1 > above) {
            uint64_t& longest = longest_ended_[it->first];
            longest = std::max(longest, at - 1 - above);
        }
        above = std::max(above, it->second);
    }
    if (!latest_at_.count(key)) {  // runs at <= a new value include the runs at <= the value below it
        auto below = longest_ended_.lower_bound(key);
        if (below != longest_ended_.begin()) longest_ended_[key] = std::max(longest_ended_[key], std::prev(below)->second);
    }
    latest_at_[key] = at;
}

uint64_t ParaStackModel::run_at_most(double level) const {
    uint64_t above = 0;
    for (auto it = latest_at_.upper_bound(Ecdf::key(level)); it != latest_at_.end(); ++it)
        above = std::max(above, it->second);
    return observed_ - above;
}

void ParaStackModel::judge_lower_levels(const SampleSizeLevel& level, Judgement* j) const {
    // L: the values below t that S_out could be tested at (seen in the
    // history or in this run), so the family of tests keeps its level alpha.
    std::vector<double> below;
    for (double v : streak_)
        if (Ecdf::key(v) < Ecdf::key(j->threshold) &&
            std::none_of(below.begin(), below.end(), [&](double b) { return Ecdf::key(b) == Ecdf::key(v); }))
            below.push_back(v);
    if (below.empty()) return;
    size_t tested = history_.distinct_below(j->threshold);
    for (double v : below)
        if (!history_.contains(v)) ++tested;
    const double family = static_cast<double>(std::max<size_t>(tested, 1));
    for (double v : below) {
        int run = 0;
        for (auto it = streak_.rbegin(); it != streak_.rend() && Ecdf::at_most(*it, v); ++it) ++run;
        const double q = std::max(std::min(1.0, history_.cdf(v) + level.d), conditional_at_most(v));
        const double p = std::min(1.0, family * std::pow(q, run));
        if (p < j->tight_probability) {
            j->tight_level = v;
            j->tight_streak = run;
            j->tight_q = q;
            j->tight_probability = p;
        }
    }
}

double ParaStackModel::conditional_at_most(double level) const {
    // P(next <= v | previous <= v) over consecutive committed samples, plus
    // the margin d of the number of such pairs (none below 11 pairs).
    uint64_t followed = 0, repeated = 0;
    for (const auto& [pair, count] : transitions_) {
        if (pair.first > Ecdf::key(level)) continue;
        followed += count;
        if (pair.second <= Ecdf::key(level)) repeated += count;
    }
    auto margin = level_for_sample_size(followed);
    if (!margin) return 0.0;
    return std::min(1.0, static_cast<double>(repeated) / followed + margin->d);
}

void ParaStackModel::dismiss_streak() {
    flush_streak();
    dismissed_at_ = observed_;
}

void ParaStackModel::flush_streak() {
    for (double held : streak_) commit(held);
    streak_.clear();
}

void ParaStackModel::commit(double s_out) {
    if (has_previous_) ++transitions_[{Ecdf::key(previous_), Ecdf::key(s_out)}];
    has_previous_ = true;
    previous_ = s_out;
    history_.add(s_out);
    runs_buffer_.push_back(s_out);
    if (static_cast<int>(runs_buffer_.size()) >= config_.runs_window) maybe_adapt_interval();
}

void ParaStackModel::maybe_adapt_interval() {
    RunsTestResult result = runs_test(runs_buffer_);
    runs_buffer_.clear();
    if (result.applicable && !result.random && interval_ * 2 <= config_.max_interval_s + 1e-9) {
        interval_ *= 2;
        ++doublings_;
    }
}

}  // namespace jobsentry
