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
    const double observed = std::max(level->p_hat, history_.cdf(j.threshold));
    const double marginal = std::min(1.0, observed + level->d);
    j.q = std::max(marginal, conditional_suspicion());
    if (j.q >= 1.0) {
        // Suspicions are so common that no run of them could be rare (e.g. t
        // is the largest S_out seen): the sample says nothing, so it is
        // learnt from instead of being held back.
        j.learning = true;
        flush_streak();
        commit(s_out, false, false);
        return j;
    }
    j.suspicion = Ecdf::at_most(s_out, j.threshold);
    if (!j.suspicion) {
        flush_streak();
        commit(s_out, false, true);
        return j;
    }
    streak_.push_back(s_out);
    j.streak = static_cast<int>(streak_.size());
    j.probability = std::pow(j.q, j.streak);
    j.hang = j.probability <= config_.alpha;
    return j;
}

double ParaStackModel::conditional_suspicion() const {
    // P(suspicion | the previous sample was one), estimated like p itself:
    // the observed share plus the margin d of its own sample size (the number
    // of suspicions that were followed by a judged sample). Below 11 such
    // pairs there is no estimate, and the marginal q stands alone.
    auto level = level_for_sample_size(followed_suspicions_);
    if (!level) return 0.0;
    return std::min(1.0, static_cast<double>(repeated_suspicions_) / followed_suspicions_ + level->d);
}

void ParaStackModel::dismiss_streak() { flush_streak(); }

void ParaStackModel::flush_streak() {
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
