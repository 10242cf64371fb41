// The decision behind jobsentry_ckpt_should_checkpoint(): fed iteration and
// checkpoint durations as the application reports them, it says whether to
// checkpoint now by the dynamic rule (work since the last checkpoint ≥ W_th,
// with E[e^{λX}] from the iteration times seen so far and C from the
// checkpoints taken so far), or by a fixed period when no failure rate is
// known (not under jobsentry). Pure: no clock, no MPI, no environment.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "tools/checkpoint/cost_guess.h"
#include "tools/checkpoint/iteration_dist.h"

namespace jobsentry::ckpt {

struct AdvisorConfig {
    double lambda = 0;              // failures per second of the job; 0: unknown, use the period
    double ckpt_cost_guess_s = kCheckpointCostGuessS;  // C until the first checkpoint has been measured
    double recovery_s = -1;         // R; -1: the (measured) checkpoint cost
    double downtime_s = 0;          // D
    double period_s = 3600;         // the fallback period
};

// The configuration from the job's environment (docs/checkpoint.md):
// JOBSENTRY_MTBF (per-node MTBF, a duration with a unit; sets λ), nodes from
// JOBSENTRY_NODES, SLURM_JOB_NUM_NODES or SLURM_NNODES (default 1),
// JOBSENTRY_CKPT_COST, JOBSENTRY_RECOVERY, JOBSENTRY_DOWNTIME and
// JOBSENTRY_CKPT_PERIOD (overrides `period_s`). A bad value is left out and
// named in *warnings; it never stops the application.
AdvisorConfig config_from_env(const std::function<const char*(const char*)>& getenv, double period_s,
                              std::vector<std::string>* warnings);

class CheckpointAdvisor {
public:
    explicit CheckpointAdvisor(const AdvisorConfig& config);

    void iteration_done(double seconds);
    void checkpoint_done(double seconds);
    bool should_checkpoint();

    // The threshold the next decision uses: W_th, W_FO = √(2C/λ) before any
    // iteration was seen, or the fallback period.
    double threshold();
    double work_since_checkpoint() const { return work_; }
    double checkpoint_cost() const;  // mean measured C, or the guess
    bool young_daly() const { return config_.lambda > 0; }
    size_t checkpoints() const { return ckpt_count_; }

private:
    AdvisorConfig config_;
    RecentTimes times_;
    double work_ = 0;
    double ckpt_sum_ = 0;
    size_t ckpt_count_ = 0;
    double cached_ = 0;
    bool dirty_ = true;
};

}  // namespace jobsentry::ckpt
