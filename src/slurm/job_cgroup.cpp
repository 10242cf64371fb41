#include "slurm/job_cgroup.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "base/proc_files.h"

namespace jobsentry {
namespace {

constexpr size_t kMaxPids = 1 << 16;
constexpr size_t kMaxProcsFileBytes = 1 << 20;
constexpr int kMaxDepth = 6;  // job/step/user/task and a little more

bool is_dir(const std::string& path) {
    struct stat st {};
    return lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

void walk(const std::string& dir, int depth, std::vector<pid_t>& out) {
    if (depth > kMaxDepth || out.size() >= kMaxPids) return;
    if (auto text = read_bounded(dir + "/cgroup.procs", kMaxProcsFileBytes))
        for (pid_t pid : parse_pid_list(*text, kMaxPids - out.size())) out.push_back(pid);
    DIR* d = opendir(dir.c_str());
    if (!d) return;
    std::vector<std::string> children;
    while (dirent* e = readdir(d)) {
        if (e->d_type != DT_DIR || e->d_name[0] == '.') continue;
        children.push_back(dir + "/" + e->d_name);
        if (children.size() > 4096) break;
    }
    closedir(d);
    for (const auto& child : children) walk(child, depth + 1, out);
}

bool write_text(const std::string& path, const std::string& text) {
    int fd = open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return false;
    bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    close(fd);
    return ok;
}

}  // namespace

std::vector<pid_t> parse_pid_list(const std::string& text, size_t max_pids) {
    std::vector<pid_t> out;
    size_t pos = 0;
    while (pos < text.size() && out.size() < max_pids) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        if (line.empty() || line.size() > 10 || line.find_first_not_of("0123456789") != std::string::npos) continue;
        long pid = std::strtol(line.c_str(), nullptr, 10);
        if (pid > 0 && pid < (1L << 22)) out.push_back(static_cast<pid_t>(pid));
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> job_cgroups_of(const std::string& text) {
    std::vector<std::pair<std::string, std::string>> out;
    for (auto& [hierarchy, path] : parse_proc_cgroup(text))
        if (path.find("/job_") != std::string::npos) out.emplace_back(std::move(hierarchy), std::move(path));
    return out;
}

std::optional<std::string> find_job_cgroup(const std::string& root, uid_t uid, uint32_t job_id,
                                           const std::string& node) {
    const std::string tail = "/uid_" + std::to_string(uid) + "/job_" + std::to_string(job_id);
    // v1: the freezer hierarchy, which proctrack/cgroup always uses; its
    // Slurm directory is "slurm_<node>" (builds for several slurmd per host,
    // as Debian's) or "slurm".
    for (const std::string& dir : {"slurm_" + node, std::string("slurm")}) {
        const std::string candidate = root + "/freezer/" + dir + tail;
        if ((dir != "slurm_" || !node.empty()) && node.find('/') == std::string::npos && is_dir(candidate))
            return candidate;
    }
    const std::string v2 = root + "/system.slice/slurmstepd.scope/job_" + std::to_string(job_id);
    if (is_dir(v2)) return v2;
    return std::nullopt;
}

std::string node_of_cgroup_text(const std::string& text) {
    for (const auto& [hierarchy, path] : job_cgroups_of(text)) {
        if (path.rfind("/slurm_", 0) != 0) continue;
        const size_t end = path.find('/', 7);
        if (end != std::string::npos && end > 7) return path.substr(7, end - 7);
    }
    return {};
}

std::vector<pid_t> cgroup_pids(const std::string& dir) {
    std::vector<pid_t> out;
    walk(dir, 0, out);
    return out;
}

std::string leave_job_cgroups(const std::string& root) {
    auto text = read_bounded("/proc/self/cgroup", 1 << 16);
    if (!text) return "cannot read /proc/self/cgroup";
    std::string failed;
    const std::string self = std::to_string(getpid()) + "\n";
    for (const auto& [hierarchy, path] : job_cgroups_of(*text)) {
        std::string mount = hierarchy.empty() ? root : root + "/" + hierarchy;
        if (hierarchy.rfind("name=", 0) == 0) mount = root + "/" + hierarchy.substr(5);
        if (hierarchy.empty() && is_dir(root + "/unified")) mount = root + "/unified";
        if (!write_text(mount + "/cgroup.procs", self)) failed += (failed.empty() ? "" : ", ") + mount;
    }
    return failed.empty() ? "" : "could not leave the job's cgroup in " + failed;
}

}  // namespace jobsentry
