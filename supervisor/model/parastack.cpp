#include "parastack.h"

#include <algorithm>
#include <cmath>

#include "runs_test.h"

namespace jobsentry {

std::optional<SampleSizeLevel> level_for_sample_size(uint64_t n) {
    if (n < 11) return std::nullopt;
    if (n < 19) return SampleSizeLevel{0.47, 0.3};
    if (n < 42) return SampleSizeLevel{0.27, 0.2};
    if (n < 86) return SampleSizeLevel{0.12, 0.1};
    return SampleSizeLevel{0.06, 0.05};
}

double wilson_upper(uint64_t hits, uint64_t trials, double z) {
    if (trials == 0) return 1.0;
    const double n = static_cast<double>(trials);
    const double p = hits / n;
    const double z2 = z * z;
    const double centre = p + z2 / (2 * n);
    const double spread = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    return std::min(1.0, (centre + spread) / (1 + z2 / n));
}

ParaStackModel::ParaStackModel(ModelConfig config) : config_(config), interval_(config.interval_s) {}

double ParaStackModel::next_delay(std::mt19937_64& rng) const {
    std::uniform_real_distribution<double> jitter(0.0, interval_);
    return jitter(rng) + interval_ / 2;
}

Judgement ParaStackModel::observe(double s_out) {
    Judgement j;
    auto level = level_for_sample_size(history_.size());
    if (!level) {
        j.learning = true;
        commit(s_out, false, false);
        return j;
    }
    j.threshold = history_.quantile(level->p_hat);
    j.suspicion = s_out <= j.threshold + 1e-12;
    if (!j.suspicion) {
        for (double held : streak_) commit(held, true, true);
        streak_.clear();
        commit(s_out, false, true);
        return j;
    }
    streak_.push_back(s_out);
    const double observed = std::max(level->p_hat, history_.cdf(j.threshold));
    const double marginal = std::min(1.0, observed + level->d);
    const double conditional = followed_suspicions_ > 0 ? wilson_upper(repeated_suspicions_, followed_suspicions_) : 0.0;
    j.q = std::max(marginal, conditional);
    j.streak = static_cast<int>(streak_.size());
    j.probability = std::pow(j.q, j.streak);
    j.hang = j.q < 1.0 && j.probability <= config_.alpha;
    return j;
}

void ParaStackModel::dismiss_streak() {
    for (double held : streak_) commit(held, true, true);
    streak_.clear();
}

void ParaStackModel::commit(double s_out, bool suspicion, bool judged) {
    if (judged && last_committed_judged_ && last_committed_suspicion_) {
        ++followed_suspicions_;
        if (suspicion) ++repeated_suspicions_;
    }
    last_committed_judged_ = judged;
    last_committed_suspicion_ = suspicion;
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
