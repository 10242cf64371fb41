// Bounded readers for the /proc files the supervisor needs. Every read has a
// size cap, so a hostile or huge file can never make the supervisor allocate
// without limit.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jobsentry {

struct ProcStat {
    char state = '?';
    pid_t ppid = 0;
    uint64_t cpu_ticks = 0;   // utime + stime
    uint64_t user_ticks = 0;  // utime alone
    uint64_t start_time = 0;  // clock ticks after boot; with the pid, identifies a process
    std::string comm;
    // Where the running image's code ends and its stack starts (fields 27 and 28): set by each
    // execve, so a change says the process runs another program under the same pid and start time.
    // 0 where the text stops before them or the reader may not ptrace the process.
    uint64_t end_code = 0, start_stack = 0;
};

// Parses the text of /proc/PID/stat (comm may hold spaces and parentheses).
std::optional<ProcStat> parse_proc_stat(const std::string& text);

// Reads at most max_bytes of a file; nullopt (errno set) when it cannot be opened.
std::optional<std::string> read_bounded(const std::string& path, size_t max_bytes);

std::optional<ProcStat> read_proc_stat(pid_t pid);
// /proc/PID/task/TID/stat: one thread's state and CPU time.
std::optional<ProcStat> read_thread_stat(pid_t pid, pid_t tid);

// Real, effective, saved and filesystem uids from /proc/PID/status; nullopt if
// unreadable. A process is "owned by" uid only when all four are equal to it.
std::optional<bool> process_owned_by(pid_t pid, uid_t uid);
// The same on the text of /proc/PID/status (pure: unit tests and fuzzing).
std::optional<bool> status_owned_by(const std::string& status_text, uid_t uid);
// The address range [lo, hi) of the mapping that holds addr, from the text of
// /proc/PID/maps ("lo-hi perms offset dev inode path" in hex); nullopt when
// no line holds it or a line is malformed before it.
struct AddressRange {
    uint64_t lo = 0, hi = 0;
    bool executable = false;  // its permissions hold 'x' (code)
};
std::optional<AddressRange> mapping_containing(const std::string& maps_text, uint64_t addr);
// The same read from /proc/PID/maps (at most 16 MB of it).
std::optional<AddressRange> read_mapping_containing(pid_t pid, uint64_t addr);

// True when the status text names a tracer (TracerPid: other than 0).
bool status_traced(const std::string& status_text);
// Is signal sig pending for the thread (SigPnd) or its process (ShdPnd)?
// nullopt when the status text says neither.
std::optional<bool> status_signal_pending(const std::string& status_text, int sig);

// The thread's voluntary context switches ("voluntary_ctxt_switches:" of
// /proc/PID/task/TID/status): how often it went to sleep. Pure parser and reader.
std::optional<uint64_t> status_voluntary_switches(const std::string& status_text);
std::optional<uint64_t> read_voluntary_switches(pid_t pid, pid_t tid);
// A thread's time on a CPU and waiting on a run queue for one, in ns (/proc/PID/task/TID/schedstat:
// "run_ns wait_ns timeslices"). Waiting counts every moment the thread could run but had no CPU,
// a cgroup's CPU quota throttling it included: the evidence of a rank starved of CPU.
struct SchedStat {
    uint64_t run_ns = 0, wait_ns = 0;
};
std::optional<SchedStat> parse_schedstat(const std::string& text);
std::optional<SchedStat> read_thread_schedstat(pid_t pid, pid_t tid);
// The lines of a /proc/PID/cgroup text ("id:controllers:path") as (controllers, path) pairs; the
// controllers are empty for cgroup v2. Pure; malformed lines are skipped.
std::vector<std::pair<std::string, std::string>> parse_proc_cgroup(const std::string& text);
// How often a CPU quota held a process back: nr_throttled of the cpu.stat of its own cgroup (the
// CPU controller's under cgroup v1, the unified one's under v2), counted in the quota's periods.
// A rank starved of CPU by a quota has it grow; one served less by the kernel's placement does not.
// cpu_stat_path: the cpu.stat file named by /proc/PID/cgroup's text (nullopt: no CPU controller, or a
// path that is not plain); both parsers pure.
std::optional<std::string> cpu_stat_path(const std::string& proc_cgroup_text);
std::optional<uint64_t> cpu_stat_nr_throttled(const std::string& cpu_stat_text);
std::optional<uint64_t> read_cpu_throttled_periods(pid_t pid);
// The bytes a process has written so far (wchar of /proc/PID/io: every write, to files, pipes and
// sockets alike). A code that prints a line per step writes at its own pace: the slow verdict's
// measure of how much slower the job goes. Pure; nullopt without a wchar line.
std::optional<uint64_t> proc_io_written_bytes(const std::string& proc_io_text);
// How many CPUs these processes may run on together (the union of their affinity masks); 0 when
// none could be read.
int cpus_allowed_together(const std::vector<pid_t>& pids);

}  // namespace jobsentry
