#include "hang/model/sampling_budget.h"

#include <algorithm>

namespace jobsentry {

void SamplingBudget::observe(double now, double supervisor_s, double job_s, double local_job_s, int cpus) {
    if (last_t_ >= 0 && stretch_ > 1) stretched_s_ += now - last_t_;
    last_t_ = now;
    if (!(budget_ > 0)) return;
    past_.push_back({now, supervisor_s, job_s, local_job_s});
    // Judged once per window, over the window before: a multiplicative step towards the budget.
    if (past_.front().t > now - kWindowSeconds || (judged_at_ >= 0 && now - judged_at_ < kWindowSeconds)) return;
    while (past_.size() > 2 && past_[1].t <= now - kWindowSeconds) past_.pop_front();
    const Point& from = past_.front();
    const double span = now - from.t, spent = supervisor_s - from.supervisor, job = job_s - from.job;
    judged_at_ = now;
    full_node_ = cpus > 0 && span > 0 && (local_job_s - from.local) / span >= kFullNode * cpus;
    share_ = job > 0 ? 100 * spent / job : -1;
    if (!full_node_ || share_ < 0) {
        stretch_ = 1;  // the supervisor's CPU comes out of idle time (or the job did not run): no reason to slow
        return;
    }
    stretch_ = std::clamp(stretch_ * share_ / (kAim * budget_), 1.0, kMaxStretch);
    max_seen_ = std::max(max_seen_, stretch_);
}

}  // namespace jobsentry
