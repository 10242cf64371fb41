#include "base/process_tree.h"

#include <dirent.h>

#include <cstdlib>
#include <deque>
#include <optional>

#include "base/proc_files.h"

namespace jobsentry {
namespace {

constexpr size_t kMaxProcesses = 1 << 20;

}  // namespace

std::map<pid_t, ProcInfo> scan_processes() {
    std::map<pid_t, ProcInfo> out;
    DIR* dir = opendir("/proc");
    if (!dir) return out;
    while (dirent* entry = readdir(dir)) {
        char* end = nullptr;
        long pid = std::strtol(entry->d_name, &end, 10);
        if (*end != '\0' || pid <= 0) continue;
        if (auto stat = read_proc_stat(static_cast<pid_t>(pid)))
            out[static_cast<pid_t>(pid)] = {stat->ppid, stat->start_time, stat->state, stat->cpu_ticks};
        if (out.size() >= kMaxProcesses) break;
    }
    closedir(dir);
    return out;
}

std::map<pid_t, pid_t> parents(const std::map<pid_t, ProcInfo>& procs) {
    std::map<pid_t, pid_t> out;
    for (const auto& [pid, info] : procs) out[pid] = info.parent;
    return out;
}

std::vector<pid_t> descendants_of(pid_t root, const std::map<pid_t, pid_t>& parent_of) {
    std::multimap<pid_t, pid_t> children;
    for (const auto& [pid, parent] : parent_of) children.emplace(parent, pid);
    std::vector<pid_t> out;
    std::deque<pid_t> todo{root};
    while (!todo.empty()) {
        pid_t pid = todo.front();
        todo.pop_front();
        auto [begin, end] = children.equal_range(pid);
        for (auto it = begin; it != end; ++it) {
            if (it->second == root) continue;
            out.push_back(it->second);
            todo.push_back(it->second);
        }
    }
    return out;
}

std::vector<pid_t> owned_descendants(pid_t root, uid_t uid) {
    std::vector<pid_t> out;
    const auto procs = scan_processes();
    for (pid_t pid : descendants_of(root, parents(procs))) {
        const char state = procs.at(pid).state;
        if (state == 'Z' || state == 'X') continue;  // dead already, waiting to be reaped
        if (process_owned_by(pid, uid) == std::optional<bool>(true)) out.push_back(pid);
    }
    return out;
}

}  // namespace jobsentry
