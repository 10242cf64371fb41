// Takes stack samples of processes with ptrace and libunwind-ptrace.
//
// Per sample, only the main thread is stopped: PTRACE_SEIZE, PTRACE_INTERRUPT,
// wait for the stop, copy its registers and the top of its stack, PTRACE_DETACH,
// then unwind the copy (stack_snapshot.h; where no copy can be taken, e.g. not
// x86-64, the unwind runs during the stop). The tracee is not traced between
// samples, so its signals are never delayed by us, a debugger can attach, and
// a supervisor that dies between samples leaves nothing behind. A tracee that
// does not stop within the timeout (uninterruptible sleep) is remembered and
// detached as soon as its stop arrives; the kernel also detaches every tracee
// when the tracer exits. Signals that arrive while a thread is stopped by us
// are re-injected at detach, and a process that was already stopped by SIGSTOP
// returns to that stop.
//
// Per-process caches live as long as the process is known and runs the same
// image (an execve drops them); forget(pid) drops them. What each holds, and
// why per process: libunwind's address spaces (UNW_CACHE_GLOBAL) keep the
// register rules of the PCs already unwound, 4096 of them (unwind_spaces.h:
// libunwind's default 128 made a CP2K rank miss 6.5 times a sample), and
// libunwind-ptrace keeps the last ELF image it mapped for its unwind table;
// the Symbolizer keeps libdwfl's view of /proc/PID/maps and every function
// found as an address range (symbolizer.h), which its file also keeps, at the
// file's own addresses, for the other ranks (BinarySymbols::function_at). These are keyed by the process
// because addresses are: the same binary sits at other addresses in each rank
// (ASLR). The symbol tables of the mapped files, the large part, and the
// .eh_frame that names stripped functions are read once for all ranks, at the
// files' own addresses (binary_symbols.h, by build id); so are the unwind
// tables and code that libunwind reads on a miss of its register-rule cache
// (BinarySymbols::read_unchanged). libunwind-ptrace's table lookups still find
// each code segment's table once per process (module_unwind_tables.h). The per-step CPU time (cost()) shows what
// first reads cost: the max_us of unwind and symbolize. Not thread-safe: ptrace binds a tracee to the
// thread that seized it, so one StackWalker belongs to one thread.
#pragma once

#include <sys/types.h>

#include <map>
#include <memory>
#include <optional>
#include <set>

#include "base/proc_stat_files.h"
#include "hang/sampler/binary_symbols.h"
#include "hang/sampler/cpu_cost.h"
#include "hang/sampler/frame.h"
#include "hang/sampler/unwind_spaces.h"

namespace jobsentry {

struct StackWalkerOptions {
    int max_frames = 64;
    double stop_timeout_seconds = 0.25;
};

class StackWalker {
public:
    explicit StackWalker(StackWalkerOptions options = {});
    ~StackWalker();
    StackWalker(const StackWalker&) = delete;
    StackWalker& operator=(const StackWalker&) = delete;

    // start_time: the process's /proc start time as seen at discovery; a
    // different value means the pid was reused and the sample reports "gone".
    // Zero skips the check.
    StackSample sample(pid_t pid, uint64_t start_time = 0);
    void forget(pid_t pid);
    // The process's CPU quota's throttle count (ProcStatFiles::cpu_throttled_periods), through the
    // descriptors its samples keep open.
    std::optional<uint64_t> cpu_throttled_periods(pid_t pid) { return stat_files_for(pid).cpu_throttled_periods(); }

    // Detaches tracees that did not stop in time earlier. The owner must call
    // it whenever a child-state notification may concern one (SIGCHLD, a
    // CLD_TRAPPED from waitid) and regularly, also after sampling has ended:
    // until then such a tracee stays stopped. Cheap when there are none.
    void reap_pending();
    bool is_pending(pid_t pid) const;

    // A tracer is told of a tracee's exit before its parent; if the tracee
    // was our own child, that wait status was consumed here and the parent
    // gets it from this call (once).
    std::optional<int> take_exit_status(pid_t pid);

    // This thread's CPU time in the samples taken so far (CLOCK_THREAD_CPUTIME_ID):
    // the whole of every sample, failed ones included, and stop_copy, unwind, symbolize and
    // classify for one sample in each block of kStepsTimedEvery (at an offset moving with each
    // block) that got as far as its unwind (their means stand for every sample's; their counts
    // are of the samples timed).
    const CpuCost& cost() const { return cost_; }
    static constexpr uint64_t kStepsTimedEvery = 8;
    // Unwind-table lookups so far, of the unwinds of a copied stack: one per miss of libunwind's
    // register-rule cache (UnwindSpaces::kRuleCacheEntries PCs a process; unwind_spaces.h).
    uint64_t table_lookups() const { return table_lookups_; }
    // Processes whose caches were dropped because they ran execve (another image under the same
    // pid and start time: ProcStat's end_code and start_stack changed).
    uint64_t exec_resets() const { return exec_resets_; }

private:
    struct ProcessCache;
    ProcessCache& cache_for(pid_t pid, const ProcStat& image);

    StackWalkerOptions options_;
    BinaryCache binaries_;  // every rank's binaries, read once (binary_symbols.h)
    UnwindSpaces spaces_;   // before caches_, which give their spaces back to it when destroyed
    std::map<pid_t, std::unique_ptr<ProcessCache>> caches_;
    // Each sampled process's /proc files, kept open for the first kMaxKeptOpen of them (three
    // descriptors each, five once its CPU quota is read; the others are read by path): a node's monitored ranks and a few visitors.
    static constexpr size_t kMaxKeptOpen = 64;
    ProcStatFiles& stat_files_for(pid_t pid);
    std::map<pid_t, std::unique_ptr<ProcStatFiles>> stat_files_;
    size_t kept_open_ = 0;
    std::set<pid_t> pending_;
    std::map<pid_t, int> exits_;
    CpuCost cost_;
    uint64_t samples_ = 0;  // taken so far: which of them time their steps
    uint64_t table_lookups_ = 0;
    uint64_t exec_resets_ = 0;
};

}  // namespace jobsentry
