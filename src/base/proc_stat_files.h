// The /proc files a stack sample reads for one process (its stat, its main thread's stat and
// schedstat, and every few rounds its cgroup and that cgroup's cpu.stat), kept open and read again
// from offset 0 each time: one system call a read instead of four (open, read, read at the end,
// close). On a virtual machine a path lookup under /proc was the
// supervisor's dearest step (bench/supervisor_cpu.sh; docs/benchmarks.md, "The supervisor's CPU
// share of the job"). A descriptor of /proc/PID/... stays bound to the process it was opened for:
// once that process has exited, reads fail, so a pid used again by another process is never read
// through it (the caller's start-time check sees the new one only after reopening).
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

#include "base/proc_files.h"

namespace jobsentry {

class ProcStatFiles {
public:
    // keep_open=false reads by path each time (the caller bounds how many processes hold descriptors).
    ProcStatFiles(pid_t pid, bool keep_open);
    ~ProcStatFiles();
    ProcStatFiles(const ProcStatFiles&) = delete;
    ProcStatFiles& operator=(const ProcStatFiles&) = delete;

    std::optional<ProcStat> stat();              // /proc/PID/stat
    std::optional<ProcStat> main_thread_stat();  // /proc/PID/task/PID/stat
    std::optional<SchedStat> main_thread_schedstat();
    // How often a CPU quota has held it back: nr_throttled of the cpu.stat of its CPU controller's
    // cgroup (read_cpu_throttled_periods, proc_files.h). Its /proc/PID/cgroup is read each time, so
    // a process moved to another cgroup (a quota put on it alone) is read in its new one.
    std::optional<uint64_t> cpu_throttled_periods();
    // The bytes it has written so far (/proc/PID/io, proc_io_written_bytes).
    std::optional<uint64_t> written_bytes();
    bool keeps_open() const { return keep_open_; }

private:
    struct File {
        std::string path;
        size_t max_bytes = 0;
        int fd = -1;
    };
    // At most file.max_bytes of it, read from its start; nullopt when it cannot be read (the
    // descriptor is then closed, and the next read opens the path again).
    std::optional<std::string> read(File& file);

    bool keep_open_;
    File stat_, thread_stat_, schedstat_, cgroup_, io_;
    File cpu_stat_;  // of the cgroup last read: reopened when the process's cgroup changes
    char buffer_[4096];
};

}  // namespace jobsentry
