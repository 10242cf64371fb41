// `jobsentry noise-job`: the OS-noise probe of a Slurm job on this node, run
// by jobsent.so at job start (as root, before the step's tasks). Measures the
// job's PUs, writes the full result as the job's user into the report
// directory, and adds a one-line summary clause to the job's AdminComment.
// Every failure is logged and exits 1; the job is never touched otherwise.
#pragma once

#include <string>
#include <vector>

namespace jobsentry {

int run_noise_job(const std::vector<std::string>& args);

// The job's PUs on this node, as a CPU list ("0-3,8"), from its cpuset
// cgroup (v1: cpuset/slurm*/uid_U/job_N; v2: the job's scope), or "" when
// the site does not confine jobs to cpusets (then every PU we may run on).
std::string job_cpuset(const std::string& cgroup_root, unsigned uid, unsigned job_id);

// "jobsentry noise NODE: worst PU 3 0.42%, max detour 1.2ms (2 PUs, 2s)".
struct ProbeResult;
std::string noise_clause(const std::string& node, const ProbeResult& result);

}  // namespace jobsentry
