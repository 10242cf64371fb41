// Starting and stopping the per-job supervisor from slurmstepd (remote
// context, as root). One supervisor per job: the first step that wants one
// claims state_dir/job_<id>.pid with O_EXCL; later steps find it alive.
// The supervisor is started detached (double fork, setsid, fds closed,
// stdout/stderr to log_dir/job_<id>.log), with execv: no shell, and an
// environment of our own, not the job's.
#pragma once

#include <string>
#include <vector>

#include "policy.h"

namespace jobsentry {

// Returns "" when a supervisor runs for the job (started now or before),
// otherwise what went wrong. Never blocks for more than a fork and an exec.
std::string start_supervisor(const SitePolicy& policy, unsigned job_id, const std::vector<std::string>& argv);

// SIGTERM to the job's supervisor, if its pid file names a live process that
// is still the one started (same start time), then waits up to wait_ms for it
// to end. Returns whether one was signalled.
bool stop_supervisor(const SitePolicy& policy, unsigned job_id, int wait_ms);

}  // namespace jobsentry
