// Starting and stopping the per-job supervisor from slurmstepd (remote
// context, as root). One supervisor per job: the first step that wants one
// claims state_dir/job_<id>.pid with O_EXCL; later steps find it alive.
// The supervisor is started detached (double fork, setsid, fds closed,
// stdout/stderr to log_dir/job_<id>.log), with execv: no shell, and an
// environment of our own, not the job's.
#pragma once

#include <string>
#include <vector>

#include "slurm/plugin/policy.h"

namespace jobsentry {

// Returns "" when a supervisor runs for the job (started now or before),
// otherwise what went wrong. Never blocks for more than a fork and an exec.
// node_index: the node's place in the job; 0 is the leader (`supervise`),
// others run the node agent (`agent`); each has its own pid file and log
// (supervisor_stem()).
std::string start_supervisor(const SitePolicy& policy, unsigned job_id, unsigned node_index,
                             const std::vector<std::string>& argv);

// SIGTERM to the job's supervisor, if its pid file names a live process that
// is still the one started (same start time), then waits up to wait_ms for it
// to end. Returns whether one was signalled.
bool stop_supervisor(const SitePolicy& policy, unsigned job_id, unsigned node_index, int wait_ms);

// The job's OS-noise probe (`jobsentry noise-job`), run to its end before the
// step's tasks start, at most timeout_ms, and only once per job on this node
// (state_dir/job_<id>.noise marks it done). "" when it ran or had run.
std::string run_noise_probe_once(const SitePolicy& policy, unsigned job_id, const std::vector<std::string>& argv,
                                 int timeout_ms);
// Removes that mark when the job ends, so a requeued run probes again.
void forget_noise_probe(const SitePolicy& policy, unsigned job_id);

// --rma-check: a step marks the job (state_dir/job_<id>.rma); when the job
// ends, the first end that finds the mark removes it and runs argv (`jobsentry
// rma-job`) to its end, at most timeout_ms. "" when done or nothing to do.
std::string mark_rma_job(const SitePolicy& policy, unsigned job_id);
std::string analyse_rma_once(const SitePolicy& policy, unsigned job_id, const std::vector<std::string>& argv,
                             int timeout_ms);

}  // namespace jobsentry
