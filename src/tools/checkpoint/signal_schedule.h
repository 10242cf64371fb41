// When the supervisor should send the checkpoint signal (e.g. SIGUSR1, the
// `--checkpoint=signal:USR1` pattern) to an application that checkpoints at
// the end of the iteration in which the signal arrives. Sending it once the
// work since the last checkpoint reaches W_th reproduces the dynamic rule
// exactly: the application then checkpoints at the first iteration end with
// work ≥ W_th. Without iteration statistics the target is P_YD = √(2C/λ).
// Pure: times are seconds on any monotonic clock the caller chooses.
#pragma once

#include <cstddef>
#include <vector>

#include "tools/checkpoint/young_daly.h"

namespace jobsentry::ckpt {

struct SignalScheduleConfig {
    double lambda = 0;              // failures per second of the job (> 0)
    double ckpt_cost_guess_s = 60;  // C until a checkpoint's end has been reported
    double recovery_s = -1;         // R; -1: C
    double downtime_s = 0;          // D
    double min_gap_s = 1;           // never two signals closer than this plus C
};

class SignalSchedule {
public:
    SignalSchedule(const SignalScheduleConfig& config, double start_time);

    // The supervisor sent the signal at time t.
    void signal_sent(double t);
    // The application reported (or the supervisor saw) the end of a
    // checkpoint at time t that took `cost` seconds.
    void checkpoint_finished(double t, double cost);
    // An iteration time observed by whatever means (progress samples, a log).
    void iteration_observed(double seconds);

    // Absolute time at which to send the next signal.
    double next_signal_time();
    // The work target between checkpoints in use: W_th, or P_YD without
    // iteration statistics.
    double target_work();
    double checkpoint_cost() const;

private:
    // Mean residual of the iteration running when the signal lands,
    // E[X²]/(2E[X]) (the inspection paradox); 0 without statistics.
    double mean_residual() const;

    SignalScheduleConfig config_;
    double work_start_;          // end of the last checkpoint (or the start)
    double last_signal_ = -1;    // -1: none since the last checkpoint
    double ckpt_sum_ = 0;
    size_t ckpt_count_ = 0;
    RecentTimes times_;
};

}  // namespace jobsentry::ckpt
