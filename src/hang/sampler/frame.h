// One stack sample of one process: the frames of its main thread and what the
// process was doing (scheduler state, CPU time) when it was taken.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace jobsentry {

struct Frame {
    uint64_t pc = 0;       // return address for callers, exact PC for the innermost frame
    std::string function;  // mangled symbol name, empty when no symbol covers the PC
    std::string module;    // path of the mapped file holding the PC, empty if none
    bool mpi = false;      // named MPI_*/PMPI_*/mpi_*_ or inside an MPI library mapping
};

enum class SampleStatus {
    ok,       // frames are valid
    gone,     // process exited (ESRCH, exit during the sample, or pid reused)
    denied,   // ptrace or /proc access refused (EPERM/EACCES)
    timeout,  // the thread did not stop in time (e.g. uninterruptible sleep)
    busy,     // another tracer (a debugger) holds the process; try again later
    error,    // anything else; see StackSample::error
    unreachable,  // the rank lives on another node whose agent did not answer (multi-node jobs)
};

struct StackSample {
    pid_t pid = 0;
    SampleStatus status = SampleStatus::error;
    std::string error;          // human-readable cause when status != ok
    std::vector<Frame> frames;  // innermost first
    bool in_mpi = false;        // verdict over the frames (see mpi_classifier.h)
    bool complete = true;       // the unwind reached the thread's entry (see stack_root.h)
    char state = '?';           // /proc/PID/stat state before the sample (R, S, D, T, ...)
    uint64_t cpu_ticks = 0;     // utime + stime of the whole process, clock ticks
    uint64_t main_cpu_ticks = 0;  // of its main thread alone (the one sampled)
    // ...of which user time. Each ptrace stop of ours charges the tracee some system time, even
    // when it sleeps: on a PVM guest about 2.5 ms per stop (a sleeping rank watched every 100 ms
    // "ran" 1.26 s in 50 s), enough to pass for computing. See ProgressTracker::observe.
    uint64_t main_user_ticks = 0;
    // The main thread's time on a CPU and waiting for one (/proc/PID/task/PID/schedstat, ns): the
    // slow verdict's evidence of a rank starved of CPU. sched_known is false where the kernel has no
    // schedstat or an agent of an earlier release sent none.
    bool sched_known = false;
    uint64_t main_run_ns = 0, main_wait_ns = 0;
    double taken_at = 0;        // CLOCK_MONOTONIC seconds
    double cost_seconds = 0;    // time from seize to the end of the unwind
    double held_seconds = 0;    // of which the thread was stopped: seize to detach (the unwind runs after)
    double stop_seconds = 0;    // of which waiting for the thread to stop (scheduler-bound when CPUs are busy)
    // A node agent's compact sample leaves the frames out and sends the two
    // signatures of hang/model/progress.h, computed where the frames were.
    bool digest_only = false;
    uint64_t exact_digest = 0;
    uint64_t progress_digest = 0;
    uint64_t chain_digest = 0;  // the function names of every frame: the same in two processes of one
                                // binary (exact_digest hashes PCs, which ASLR makes differ); 0: not sent
    std::string mpi_call;       // outermost MPI function, with the digests
};

const char* to_string(SampleStatus s);

}  // namespace jobsentry
