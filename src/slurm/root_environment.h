// The environment of jobsentry's root processes (supervise, agent, noise-job,
// rma-job). jobsentry.so already starts them with an environment of its own
// (slurm/plugin/supervisor_process.cpp: PATH and SLURM_CONF, nothing of the job's);
// this is the second fence, for a start by other means: whatever the
// environment holds, a root process keeps only a fixed PATH and SLURM_CONF,
// so that LD_*, JOBSENTRY_*, other SLURM_*, HWLOC_* (hwloc plugins) or
// DEBUGINFOD_* (libdw fetching debug files) can change nothing it loads or runs.
#pragma once

#include <string>
#include <vector>

namespace jobsentry {

inline constexpr const char* kRootPath = "PATH=/usr/sbin:/usr/bin:/sbin:/bin";

// Pure: the variables ("NAME=value") a root process keeps of env.
std::vector<std::string> root_environment(const std::vector<std::string>& env);

// When running as root (euid 0), replaces this process's environment by
// root_environment() of it. Returns how many variables were dropped.
size_t enter_root_environment();

}  // namespace jobsentry
