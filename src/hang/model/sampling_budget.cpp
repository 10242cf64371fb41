#include "hang/model/sampling_budget.h"

#include <algorithm>

namespace jobsentry {

void SamplingBudget::observe(double now, double supervisor_s, double job_s, double local_job_s, int cpus) {
    if (!due(now)) return;
    const Point to{now, supervisor_s, job_s, local_job_s};
    const Point from = from_;
    from_ = to;
    if (from.t < 0) return;  // the first point: a window begins
    judged_ = true;
    // A multiplicative step towards the budget, judged over the window just ended.
    const double span = now - from.t, spent = supervisor_s - from.supervisor, job = job_s - from.job;
    if (stretch_ > 1) stretched_s_ += span;
    full_node_ = cpus > 0 && span > 0 && (local_job_s - from.local) / span >= kFullNode * cpus;
    share_ = job > 0 ? 100 * spent / job : -1;
    whole_share_ = job_s > 0 ? 100 * supervisor_s / job_s : -1;
    if (!full_node_ || share_ < 0) {
        stretch_ = 1;  // the supervisor's CPU comes out of idle time (or the job did not run): no reason to slow
        return;
    }
    const double share = std::max(share_, whole_share_);
    stretch_ = std::clamp(stretch_ * share / (kAim * budget_), 1.0, kMaxStretch);
    max_seen_ = std::max(max_seen_, stretch_);
}

}  // namespace jobsentry
