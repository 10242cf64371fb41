#include "tools/checkpoint/signal_schedule.h"

#include <algorithm>

namespace jobsentry::ckpt {
SignalSchedule::SignalSchedule(const SignalScheduleConfig& config, double start_time)
    : config_(config), work_start_(start_time) {}

void SignalSchedule::signal_sent(double t) { last_signal_ = t; }

void SignalSchedule::checkpoint_finished(double t, double cost) {
    ckpt_sum_ += std::max(0.0, cost);
    ++ckpt_count_;
    work_start_ = t;
    last_signal_ = -1;
}

void SignalSchedule::iteration_observed(double seconds) {
    if (!(seconds > 0)) return;
    times_.add(seconds);
}

double SignalSchedule::checkpoint_cost() const {
    return ckpt_count_ ? ckpt_sum_ / static_cast<double>(ckpt_count_) : config_.ckpt_cost_guess_s;
}

double SignalSchedule::target_work() {
    double c = checkpoint_cost();
    Platform p{config_.lambda, c, config_.downtime_s, config_.recovery_s < 0 ? c : config_.recovery_s};
    return times_.empty() ? young_daly_period(p) : dynamic_threshold(p, IterationDist::empirical(times_.values()));
}

double SignalSchedule::mean_residual() const {
    if (times_.empty()) return 0;
    double s1 = 0, s2 = 0;
    for (double x : times_.values()) {
        s1 += x;
        s2 += x * x;
    }
    return s2 / (2 * s1);
}

double SignalSchedule::next_signal_time() {
    double c = checkpoint_cost();
    if (last_signal_ < 0) return work_start_ + target_work();
    // A signal was sent but no checkpoint end was reported: assume the
    // application checkpointed at the end of the iteration it was in
    // (mean residual) for C, and schedule the next period from there; never
    // sooner than C + min_gap after the last signal.
    double assumed_end = last_signal_ + mean_residual() + c;
    return std::max(assumed_end + target_work(), last_signal_ + c + config_.min_gap_s);
}

}  // namespace jobsentry::ckpt
