// What the supervisor's own CPU time goes to, and what the job's CPU time is:
// on a fully subscribed node every CPU-second the supervisor spends is one
// the job does not get, so its share of the job's CPU is the cost that holds
// still (wall-time overheads drown in a busy node's noise). Pure
// accumulators; the clocks are read by the callers (base/clock.h).
#pragma once

#include <sys/types.h>

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>

namespace jobsentry {

// The steps of a sample (the first four, in StackWalker::sample) and of a
// sampling round (model), then two wholes: one ptrace sample, one verification.
enum class CostStep {
    stop_copy,     // /proc stat reads, seize, stop, copy of registers and stack, detach
    unwind,        // libunwind over the copy: the call chain's PCs
    symbolize,     // PCs to function names (libdwfl and our range cache)
    classify,      // inside MPI? did the unwind reach the thread's entry?
    model,         // one round's evidence: progress, ParaStack's models, per-rank runs
    slow,          // one round of the slow verdict: its throttle and link readings and its model
    sample,        // one whole ptrace sample (the four sampler steps and their glue)
    verification,  // one whole verification (its samples included)
};
constexpr size_t kCostSteps = 8;
const char* to_string(CostStep step);

struct StepTally {
    uint64_t count = 0;
    double total_s = 0;
    double max_s = 0;
    void add(double seconds);
    double mean_s() const { return count ? total_s / static_cast<double>(count) : 0; }
};

struct CpuCost {
    std::array<StepTally, kCostSteps> steps{};
    // The sampler's four steps are timed in one sample of this many (StackWalker::kStepsTimedEvery);
    // the wholes and the round's steps in every one.
    uint64_t sampler_steps_every = 1;
    void add(CostStep step, double seconds) { steps[static_cast<size_t>(step)].add(seconds); }
    const StepTally& operator[](CostStep step) const { return steps[static_cast<size_t>(step)]; }
    void merge(const CpuCost& other);
};

// The job's CPU time: per process (node, pid, start time, so a reused pid is
// another process), the largest utime + stime seen. A process's last reading
// stands after it exits, so the sum is short of the truth by at most what each
// rank ran after its last reading.
class JobCpuTally {
public:
    void observe(const std::string& node, pid_t pid, uint64_t start_time, uint64_t cpu_ticks);
    uint64_t total_ticks() const;
    uint64_t local_ticks() const;  // of this node's ranks (node "")

private:
    std::map<std::tuple<std::string, pid_t, uint64_t>, uint64_t> ticks_;
};

// The supervisor's CPU as a percentage of the job's; 0 when the job has not run.
double cpu_share_percent(double supervisor_s, double job_s);

// "supervisor CPU 0.21 s, 0.053 % of the job's 396 s": for log lines and
// Slurm's AdminComment (bounded: numbers only).
std::string cpu_share_summary(double supervisor_s, double job_s);

}  // namespace jobsentry
