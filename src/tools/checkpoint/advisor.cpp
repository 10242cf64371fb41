#include "tools/checkpoint/advisor.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "tools/checkpoint/iteration_dist.h"
#include "base/duration.h"
#include "tools/checkpoint/young_daly.h"

namespace jobsentry::ckpt {
AdvisorConfig config_from_env(const std::function<const char*(const char*)>& getenv, double period_s,
                              std::vector<std::string>* warnings) {
    AdvisorConfig c;
    c.period_s = period_s;
    auto duration = [&](const char* name, bool allow_zero, double* out) {
        const char* v = getenv(name);
        if (!v) return false;
        double s = parse_duration_seconds(v);
        if (s < 0 || (!allow_zero && s == 0)) {
            warnings->push_back(std::string(name) + "=" + v + " ignored: accepted values are " +
                                (allow_zero ? "" : "positive ") + "durations with a unit ms, s, m, h or d");
            return false;
        }
        *out = s;
        return true;
    };
    double nodes = 1;
    for (const char* name : {"JOBSENTRY_NODES", "SLURM_JOB_NUM_NODES", "SLURM_NNODES"}) {
        const char* v = getenv(name);
        if (!v) continue;
        char* end = nullptr;
        errno = 0;
        long n = std::strtol(v, &end, 10);
        if (*v == '\0' || *end != '\0' || errno != 0 || n < 1) {
            warnings->push_back(std::string(name) + "=" + v + " ignored: accepted values are whole numbers >= 1");
            continue;
        }
        nodes = static_cast<double>(n);
        break;
    }
    double mtbf = 0;
    if (duration("JOBSENTRY_MTBF", false, &mtbf)) c.lambda = failure_rate(mtbf, nodes);
    duration("JOBSENTRY_CKPT_COST", false, &c.ckpt_cost_guess_s);
    duration("JOBSENTRY_RECOVERY", true, &c.recovery_s);
    duration("JOBSENTRY_DOWNTIME", true, &c.downtime_s);
    duration("JOBSENTRY_CKPT_PERIOD", false, &c.period_s);
    return c;
}

CheckpointAdvisor::CheckpointAdvisor(const AdvisorConfig& config) : config_(config) {}

void CheckpointAdvisor::iteration_done(double seconds) {
    seconds = std::max(0.0, seconds);
    work_ += seconds;
    if (!young_daly()) return;  // no statistics needed for the fixed period
    times_.add(seconds);
    dirty_ = true;
}

void CheckpointAdvisor::checkpoint_done(double seconds) {
    ckpt_sum_ += std::max(0.0, seconds);
    ++ckpt_count_;
    work_ = 0;
    dirty_ = true;
}

double CheckpointAdvisor::checkpoint_cost() const {
    return ckpt_count_ ? ckpt_sum_ / static_cast<double>(ckpt_count_) : config_.ckpt_cost_guess_s;
}

double CheckpointAdvisor::threshold() {
    if (!young_daly()) return config_.period_s;
    if (!dirty_) return cached_;
    double c = checkpoint_cost();
    Platform p{config_.lambda, c, config_.downtime_s, config_.recovery_s < 0 ? c : config_.recovery_s};
    cached_ = times_.empty() ? young_daly_period(p) : dynamic_threshold(p, IterationDist::empirical(times_.values()));
    dirty_ = false;
    return cached_;
}

bool CheckpointAdvisor::should_checkpoint() { return work_ >= threshold(); }

}  // namespace jobsentry::ckpt
