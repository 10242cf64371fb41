#include "hang/sampler/cpu_cost.h"

#include <algorithm>
#include <cstdio>

namespace jobsentry {

const char* to_string(CostStep step) {
    switch (step) {
        case CostStep::stop_copy: return "stop_copy";
        case CostStep::unwind: return "unwind";
        case CostStep::symbolize: return "symbolize";
        case CostStep::classify: return "classify";
        case CostStep::model: return "model";
        case CostStep::slow: return "slow";
        case CostStep::sample: return "sample";
        case CostStep::verification: return "verification";
    }
    return "?";
}

void StepTally::add(double seconds) {
    if (!(seconds >= 0)) seconds = 0;  // a clock that stepped back (or NaN) counts the step, not the time
    ++count;
    total_s += seconds;
    max_s = std::max(max_s, seconds);
}

void CpuCost::merge(const CpuCost& other) {
    sampler_steps_every = std::max(sampler_steps_every, other.sampler_steps_every);
    for (size_t i = 0; i < kCostSteps; ++i) {
        steps[i].count += other.steps[i].count;
        steps[i].total_s += other.steps[i].total_s;
        steps[i].max_s = std::max(steps[i].max_s, other.steps[i].max_s);
    }
}

void JobCpuTally::observe(const std::string& node, pid_t pid, uint64_t start_time, uint64_t cpu_ticks) {
    uint64_t& seen = ticks_[{node, pid, start_time}];
    seen = std::max(seen, cpu_ticks);
}

uint64_t JobCpuTally::total_ticks() const {
    uint64_t sum = 0;
    for (const auto& [process, ticks] : ticks_) sum += ticks;
    return sum;
}

uint64_t JobCpuTally::local_ticks() const {
    uint64_t sum = 0;
    for (const auto& [process, ticks] : ticks_)
        if (std::get<0>(process).empty()) sum += ticks;
    return sum;
}

double cpu_share_percent(double supervisor_s, double job_s) {
    return job_s > 0 && supervisor_s >= 0 ? 100.0 * supervisor_s / job_s : 0;
}

std::string cpu_share_summary(double supervisor_s, double job_s) {
    char buf[128];
    if (job_s > 0)
        std::snprintf(buf, sizeof buf, "supervisor CPU %.2f s, %.3f %% of the job's %.0f s", supervisor_s,
                      cpu_share_percent(supervisor_s, job_s), job_s);
    else
        std::snprintf(buf, sizeof buf, "supervisor CPU %.2f s (the job's CPU time unknown)", supervisor_s);
    return buf;
}

}  // namespace jobsentry
