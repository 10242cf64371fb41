// The process tree from /proc: who is below whom, for finding a job's ranks
// and for ending a command's tree. Bounded: at most 2^20 processes are read.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <vector>

namespace jobsentry {

struct ProcInfo {
    pid_t parent;
    uint64_t start_time;
    char state;
    uint64_t cpu_ticks = 0;  // utime + stime
};

// Every process of this node, as /proc/PID/stat tells it.
std::map<pid_t, ProcInfo> scan_processes();

// pid -> parent of a scan.
std::map<pid_t, pid_t> parents(const std::map<pid_t, ProcInfo>& procs);

// Pure: every pid below root (not root itself) in a pid -> parent map, breadth first.
std::vector<pid_t> descendants_of(pid_t root, const std::map<pid_t, pid_t>& parent_of);

// Every live (not zombie) descendant of root owned by uid, for ending a command tree.
std::vector<pid_t> owned_descendants(pid_t root, uid_t uid);

}  // namespace jobsentry
