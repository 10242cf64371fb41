// A Slurm job's processes on this node, by their job cgroup: a membership
// that only slurmstepd (root) sets and that no user can forge, unlike
// environment variables. proctrack/cgroup places them under
//   cgroup v1: /sys/fs/cgroup/freezer/slurm[_<node>]/uid_<uid>/job_<id>/step_*/
//   cgroup v2: /sys/fs/cgroup/system.slice/slurmstepd.scope/job_<id>/step_*/
// Every read is bounded.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jobsentry {

// Pure: the pids of a cgroup.procs text (one per line); malformed lines are skipped.
std::vector<pid_t> parse_pid_list(const std::string& text, size_t max_pids);

// Pure: the cgroup paths in a /proc/PID/cgroup text that lie inside a Slurm
// job ("/slurm.../job_N/..." or ".../job_N/..."), as (hierarchy, path) pairs.
std::vector<std::pair<std::string, std::string>> job_cgroups_of(const std::string& proc_cgroup_text);

// How long the supervisor and a node agent wait for the job's cgroup to
// appear: they start while slurmstepd is still creating it.
constexpr double kJobCgroupWaitSeconds = 15;

// The job's cgroup directory under root (default "/sys/fs/cgroup"), if it
// exists. node: this node's name; with several slurmd on one host each has
// its own slurm_<node> directory, and only ours holds this node's processes.
std::optional<std::string> find_job_cgroup(const std::string& root, uid_t uid, uint32_t job_id,
                                           const std::string& node);

// Pure: the node named by a Slurm cgroup v1 path in a /proc/PID/cgroup text
// ("/slurm_n2/uid_1000/job_7/step_0" -> "n2"); "" when none (one slurmd per host).
std::string node_of_cgroup_text(const std::string& proc_cgroup_text);

// Every pid in the cgroup directory and its descendants (steps, tasks).
std::vector<pid_t> cgroup_pids(const std::string& dir);

// Moves the calling process out of any Slurm job cgroup it inherited from
// slurmstepd, into the root of each hierarchy: a supervisor must not be
// frozen, limited or killed with the job's steps. Returns what failed.
std::string leave_job_cgroups(const std::string& root);

}  // namespace jobsentry
