#include "hang/model/spin_watch.h"

#include <algorithm>

namespace jobsentry {

SpinWatchNeed spin_watch_need(const RankVerification& rank, const std::vector<int>& suspects) {
    const bool suspect = std::count(suspects.begin(), suspects.end(), rank.rank) > 0;
    if (!suspect || rank.in_mpi || rank.stopped || rank.cpu_ticks_used == 0) return SpinWatchNeed::none;
    if (rank.main_ran) return SpinWatchNeed::watch;
    const uint64_t others = rank.cpu_ticks_used - std::min(rank.cpu_ticks_used, rank.main_cpu_ticks_used);
    return others >= kThreadsWorkingWindowTicks ? SpinWatchNeed::threads_work : SpinWatchNeed::none;
}

SpinWatch::SpinWatch(const StackSample& latest, double window_s, double tick_s)
    : signature_(progress_signature(latest)), cpu_at_start_(latest.main_cpu_ticks), cpu_now_(latest.main_cpu_ticks),
      window_s_(window_s), tick_s_(tick_s) {}

SpinWatch::Look SpinWatch::look(const StackSample& sample) {
    if (progress_signature(sample) != signature_) return Look::moved;
    cpu_now_ = std::max(cpu_now_, sample.main_cpu_ticks);
    ++looks_;
    if (sample.state == 'S') ++asleep_;
    return Look::go_on;
}

double SpinWatch::ran_seconds() const { return static_cast<double>(cpu_now_ - cpu_at_start_) * tick_s_; }

bool SpinWatch::stands() const {
    return ran_seconds() >= window_s_ || (looks_ >= kAsleepLooks && asleep_ == looks_);
}

}  // namespace jobsentry
