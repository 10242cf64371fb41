// The few libslurm calls the supervisor makes, each returning an error text
// ("" on success) instead of Slurm's errno conventions. Runs as root, so
// slurmctld accepts AdminComment updates, cancels and requeues.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jobsentry {

struct SlurmJobInfo {
    uint32_t job_id = 0;
    uid_t uid = 0;
    gid_t gid = 0;
    std::string user;
    std::string work_dir;
    std::string std_out;  // expanded (%j, %u, ...); empty for interactive jobs
    bool batch = false;
    uint32_t restart_count = 0;
    uint32_t num_nodes = 0;
    std::vector<std::string> nodes;  // the job's nodes in order; the first runs the leader
    std::string excluded_nodes;      // its ExcNodeList, as Slurm writes it ("" when none)
    bool finished = false;  // completed, cancelled, failed, ...
    std::string admin_comment;
};

// Once per process, before any other call.
void slurm_client_init();

std::optional<SlurmJobInfo> slurm_job_info(uint32_t job_id, std::string* error);
// job_over (where given) is set when slurmctld refused because the job has
// finished or is unknown to it: no retry can succeed then.
std::string slurm_set_admin_comment(uint32_t job_id, const std::string& comment, bool* job_over = nullptr);
// Puts one clause of a part of jobsentry into the job's AdminComment, keeping
// the others (annotation.h: with_clause); *comment gets the new line.
std::string slurm_set_comment_clause(uint32_t job_id, const std::string& key, const std::string& clause,
                                     std::string* comment);
// The address slurmctld knows a node by (NodeAddr), "" with *error.
std::string slurm_node_address(const std::string& node, std::string* error);
std::string slurm_cancel(uint32_t job_id, bool* job_over = nullptr);
std::string slurm_requeue_job(uint32_t job_id, bool* job_over = nullptr);
// The job is requeued and `nodes` (comma-separated) are added to its excluded
// nodes (those it excluded already stay excluded): it runs again elsewhere.
// Requeued held, changed, released (Slurm changes pending jobs only).
// *requeued says whether the requeue happened, also when a later step failed.
std::string slurm_requeue_excluding(uint32_t job_id, const std::string& nodes, bool* requeued);
// Sets the node DRAIN (it takes no new jobs; its jobs run on) with reason.
std::string slurm_drain_node(const std::string& node, const std::string& reason);
// Signals the batch shell (batch jobs) or prints message on srun/salloc's
// terminal (interactive jobs).
std::string slurm_notify(uint32_t job_id, bool batch, int signal, const std::string& message);

}  // namespace jobsentry
