#include "base/proc_stat_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace jobsentry {

ProcStatFiles::ProcStatFiles(pid_t pid, bool keep_open) : keep_open_(keep_open) {
    const std::string dir = "/proc/" + std::to_string(pid);
    const std::string thread = dir + "/task/" + std::to_string(pid);
    stat_ = {dir + "/stat", 4096, -1};
    thread_stat_ = {thread + "/stat", 4096, -1};
    schedstat_ = {thread + "/schedstat", 256, -1};
    cgroup_ = {dir + "/cgroup", 4096, -1};
    io_ = {dir + "/io", 512, -1};
}

ProcStatFiles::~ProcStatFiles() {
    for (File* f : {&stat_, &thread_stat_, &schedstat_, &cgroup_, &io_, &cpu_stat_})
        if (f->fd >= 0) ::close(f->fd);
}

std::optional<std::string> ProcStatFiles::read(File& file) {
    if (!keep_open_) return read_bounded(file.path, file.max_bytes);
    if (file.fd < 0) file.fd = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (file.fd < 0) return std::nullopt;
    // These files are made whole at each read from offset 0 and fit in one read of their bound.
    ssize_t n;
    do n = ::pread(file.fd, buffer_, std::min(sizeof buffer_, file.max_bytes), 0);
    while (n < 0 && errno == EINTR);
    if (n < 0) {
        const int saved = errno;
        ::close(file.fd);
        file.fd = -1;
        errno = saved;
        return std::nullopt;
    }
    return std::string(buffer_, static_cast<size_t>(n));
}

std::optional<ProcStat> ProcStatFiles::stat() {
    auto text = read(stat_);
    if (!text) return std::nullopt;
    return parse_proc_stat(*text);
}

std::optional<ProcStat> ProcStatFiles::main_thread_stat() {
    auto text = read(thread_stat_);
    if (!text) return std::nullopt;
    return parse_proc_stat(*text);
}

std::optional<SchedStat> ProcStatFiles::main_thread_schedstat() {
    auto text = read(schedstat_);
    if (!text) return std::nullopt;
    return parse_schedstat(*text);
}

std::optional<uint64_t> ProcStatFiles::cpu_throttled_periods() {
    auto cgroups = read(cgroup_);
    if (!cgroups) return std::nullopt;
    auto path = cpu_stat_path(*cgroups);
    if (!path) return std::nullopt;
    if (*path != cpu_stat_.path) {
        if (cpu_stat_.fd >= 0) ::close(cpu_stat_.fd);
        cpu_stat_ = {*path, 1024, -1};
    }
    auto stat = read(cpu_stat_);  // a removed cgroup's descriptor fails, and the path is opened again next time
    if (!stat) return std::nullopt;
    return cpu_stat_nr_throttled(*stat);
}

std::optional<uint64_t> ProcStatFiles::written_bytes() {
    auto text = read(io_);
    if (!text) return std::nullopt;
    return proc_io_written_bytes(*text);
}

}  // namespace jobsentry
