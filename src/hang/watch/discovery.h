// Finds the MPI rank processes below a launcher process (mpirun, mpiexec, a
// shell script) by walking /proc. (Tasks that srun starts are children of
// slurmstepd, not of srun: the Slurm mode finds them by their job cgroup.) A process is a rank when its environment
// holds OMPI_COMM_WORLD_RANK, PMIX_RANK or PMI_RANK; a child that inherited
// the same rank from its parent (a rank's helper process) is not a rank.
// Only processes whose real, effective, saved and filesystem uids all equal
// the job's uid are considered; everything else is never touched.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jobsentry {

struct RankProcess {
    int rank = -1;
    pid_t pid = 0;            // on its node
    uint64_t start_time = 0;  // on its node's clock (ticks since its boot)
    std::string node;         // "" on the supervisor's own node; else the node whose agent samples it
    uint64_t cpu_ticks = 0;   // utime + stime when discovered (local ranks): the job's CPU time
    // Its parent where that is a process of the job's user and no rank (mpirun, orted, prted, a Hydra
    // proxy: the launcher that relays its output); for srun's tasks (slurmstepd's children), the one
    // srun of the job's user on this node (discover_ranks_among); 0: none such (a remote rank).
    pid_t launcher = 0;
};

struct Discovery {
    std::vector<RankProcess> ranks;      // sorted by rank
    std::vector<pid_t> unreadable;       // job-owned descendants whose environment we may not read
};

// Pure: the rank named by a NUL-separated environment block, if any.
std::optional<int> rank_from_environ(const std::string& environ_block);

// Pure: whether a /proc/PID/maps text maps an MPI library (is_mpi_library_path).
bool maps_name_mpi_library(const std::string& maps_text);

// The ranks below root (`jobsentry watch`: root is the supervisor).
Discovery discover_ranks(pid_t root, uid_t job_uid);

// The ranks among a set of pids (`jobsentry supervise`: a job cgroup's members).
Discovery discover_ranks_among(std::vector<pid_t> pids, uid_t job_uid);

// Pure: of the job's srun processes (pid -> parent), the srun of the one step that runs here, if
// there is exactly one. An srun whose parent is an srun is part of that step (Slurm 22.05 forks a
// child srun per step, which writes nothing); two steps at once each relay their own tasks' output.
std::optional<pid_t> sole_step_srun(const std::map<pid_t, pid_t>& srun_parent);

// Pure: one process per rank number, sorted by rank. Steps run one after another reuse rank
// numbers, so of one node's processes with the same number the newest (the step running now) is
// kept; start times of different nodes do not compare, so across nodes the first listed stays.
std::vector<RankProcess> newest_of_each_rank(const std::vector<RankProcess>& ranks);

// Pure: a multi-node job's ranks, this node's (`own`, node "", called `node` in messages) with those
// the agents report. A number seen here wins over the same number reported by an agent, and of two
// agents the first; a number that two nodes report (concurrent steps whose ranks share numbers, or
// an agent that speaks for another node's rank) is named in `ambiguous`, and no hang may be claimed
// while it is not empty: the rank that is not watched may be the one making progress.
struct JobRanks {
    std::vector<RankProcess> ranks;  // newest_of_each_rank
    std::string ambiguous;           // "rank 3 is reported by both n1 and n2", the first such number; "" if none
};
JobRanks merge_reported_ranks(std::vector<RankProcess> own, const std::string& node,
                              const std::vector<RankProcess>& reported);

}  // namespace jobsentry
