#include "hang/watch/discovery.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <string>

#include <unistd.h>

#include "hang/sampler/mpi_classifier.h"
#include "base/proc_files.h"
#include "base/process_tree.h"

namespace jobsentry {
namespace {

constexpr size_t kMaxEnvironBytes = 1 << 20;  // 1 MiB: far above any real environment
constexpr size_t kMaxMapsBytes = 8 << 20;  // 8 MiB: tens of thousands of mappings

bool maps_mpi_library(pid_t pid) {
    auto maps = read_bounded("/proc/" + std::to_string(pid) + "/maps", kMaxMapsBytes);
    return maps && maps_name_mpi_library(*maps);
}

}  // namespace

bool maps_name_mpi_library(const std::string& maps) {
    size_t pos = 0;
    while (pos < maps.size()) {
        size_t end = maps.find('\n', pos);
        if (end == std::string::npos) end = maps.size();
        size_t slash = maps.rfind('/', end);
        if (slash != std::string::npos && slash >= pos &&
            is_mpi_library_path(std::string_view(maps).substr(slash, end - slash)))
            return true;
        pos = end + 1;
    }
    return false;
}

std::optional<int> rank_from_environ(const std::string& block) {
    // Open MPI sets the first, PMIx launchers (srun --mpi=pmix) the second,
    // MPICH's Hydra and PMI-1 launchers the third.
    static const char* kNames[] = {"OMPI_COMM_WORLD_RANK=", "PMIX_RANK=", "PMI_RANK="};
    for (const char* name : kNames) {
        const std::string key = name;
        size_t pos = 0;
        while (pos < block.size()) {
            size_t end = block.find('\0', pos);
            if (end == std::string::npos) end = block.size();
            if (block.compare(pos, key.size(), key) == 0) {
                std::string value = block.substr(pos + key.size(), end - pos - key.size());
                char* tail = nullptr;
                errno = 0;
                long rank = std::strtol(value.c_str(), &tail, 10);
                if (!value.empty() && *tail == '\0' && errno == 0 && rank >= 0 && rank < (1L << 30))
                    return static_cast<int>(rank);
            }
            pos = end + 1;
        }
    }
    return std::nullopt;
}

namespace {

// The ranks among candidates, which come parents first. Only processes whose
// four uids are the job's are looked at.
Discovery ranks_among(const std::vector<pid_t>& candidates, const std::map<pid_t, ProcInfo>& procs, uid_t job_uid) {
    Discovery out;
    std::map<pid_t, int> rank_of;
    for (pid_t pid : candidates) {
        auto info = procs.find(pid);
        if (info == procs.end() || info->second.state == 'Z' || info->second.state == 'X') continue;
        if (process_owned_by(pid, job_uid) != std::optional<bool>(true)) continue;
        auto env = read_bounded("/proc/" + std::to_string(pid) + "/environ", kMaxEnvironBytes);
        if (!env) {
            if (errno == EACCES || errno == EPERM) out.unreadable.push_back(pid);
            continue;
        }
        auto rank = rank_from_environ(*env);
        if (!rank) continue;
        rank_of[pid] = *rank;
        auto parent = rank_of.find(info->second.parent);
        if (parent != rank_of.end() && parent->second == *rank) {
            // Same rank as its parent: either a rank's helper child (keep the
            // parent) or the application under a wrapper that did not exec,
            // e.g. `mpirun ./wrap.sh` (take the child that maps MPI).
            auto chosen = std::find_if(out.ranks.begin(), out.ranks.end(),
                                       [&](const RankProcess& r) { return r.pid == parent->first; });
            if (chosen != out.ranks.end() && !maps_mpi_library(chosen->pid) && maps_mpi_library(pid))
                *chosen = {*rank, pid, info->second.start_time, {}, info->second.cpu_ticks, chosen->launcher};
            continue;
        }
        // Its parent relays its output when it is the job's, no rank (a wrapper script is one) and not
        // this supervisor (`jobsentry watch -- ./singleton`: our own log is no output of the job's).
        const pid_t parent_pid = info->second.parent;
        const bool launcher = parent_pid > 1 && parent_pid != getpid() && parent == rank_of.end() &&
                              process_owned_by(parent_pid, job_uid) == std::optional<bool>(true);
        out.ranks.push_back(
            {*rank, pid, info->second.start_time, {}, info->second.cpu_ticks, launcher ? parent_pid : 0});
    }
    std::sort(out.ranks.begin(), out.ranks.end(),
              [](const RankProcess& a, const RankProcess& b) { return a.rank < b.rank; });
    return out;
}

}  // namespace

Discovery discover_ranks(pid_t root, uid_t job_uid) {
    const auto procs = scan_processes();
    return ranks_among(descendants_of(root, parents(procs)), procs, job_uid);  // breadth first: parents first
}

Discovery discover_ranks_among(std::vector<pid_t> pids, uid_t job_uid) {
    std::map<pid_t, ProcInfo> procs;
    std::map<pid_t, pid_t> srun_parent;
    for (pid_t pid : pids)
        if (auto stat = read_proc_stat(pid)) {
            procs[pid] = {stat->ppid, stat->start_time, stat->state, stat->cpu_ticks};
            if (stat->comm == "srun" && stat->state != 'Z' && stat->state != 'X') srun_parent[pid] = stat->ppid;
        }
    // A parent starts before its children: start time orders parents first.
    std::sort(pids.begin(), pids.end(), [&](pid_t a, pid_t b) {
        auto ia = procs.find(a), ib = procs.find(b);
        uint64_t ta = ia == procs.end() ? 0 : ia->second.start_time, tb = ib == procs.end() ? 0 : ib->second.start_time;
        return ta != tb ? ta < tb : a < b;
    });
    pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
    Discovery out = ranks_among(pids, procs, job_uid);
    // srun's tasks are children of root's slurmstepd, which sends their output to the step's srun;
    // that srun (the job's user's, in the batch step on this node) writes all of it out: it is the
    // launcher whose written bytes count the job's output (docs/decision-rule.md §5).
    const std::optional<pid_t> srun = sole_step_srun(srun_parent);
    if (srun && process_owned_by(*srun, job_uid) == std::optional<bool>(true))
        for (RankProcess& r : out.ranks) {
            auto info = procs.find(r.pid);  // a task of srun's: its parent is another user's (slurmstepd)
            if (r.launcher == 0 && info != procs.end() &&
                process_owned_by(info->second.parent, job_uid) == std::optional<bool>(false))
                r.launcher = *srun;
        }
    return out;
}

std::optional<pid_t> sole_step_srun(const std::map<pid_t, pid_t>& srun_parent) {
    std::optional<pid_t> step;
    for (const auto& [pid, parent] : srun_parent) {
        if (srun_parent.count(parent)) continue;  // a step's own child srun
        if (step) return std::nullopt;             // two steps at once
        step = pid;
    }
    return step;
}

std::vector<RankProcess> newest_of_each_rank(const std::vector<RankProcess>& ranks) {
    std::map<int, RankProcess> newest;
    for (const auto& r : ranks) {
        auto it = newest.find(r.rank);
        if (it == newest.end()) newest.emplace(r.rank, r);
        else if (r.node == it->second.node && r.start_time > it->second.start_time) it->second = r;
    }
    std::vector<RankProcess> out;
    out.reserve(newest.size());
    for (auto& [rank, proc] : newest) out.push_back(std::move(proc));
    return out;
}

JobRanks merge_reported_ranks(std::vector<RankProcess> own, const std::string& node,
                              const std::vector<RankProcess>& reported) {
    JobRanks out;
    std::map<int, std::string> node_of;  // by rank number: the node it is watched on
    for (const auto& r : own) node_of.emplace(r.rank, node);
    for (const auto& r : reported) {
        auto [it, first] = node_of.emplace(r.rank, r.node);
        if (first) own.push_back(r);
        else if (it->second != r.node && out.ambiguous.empty())
            out.ambiguous = "rank " + std::to_string(r.rank) + " is reported by both " + it->second + " and " + r.node;
    }
    out.ranks = newest_of_each_rank(own);
    return out;
}

}  // namespace jobsentry
