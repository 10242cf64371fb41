#include "hang/sampler/stack_walker.h"

#include <pthread.h>
#include <signal.h>

#include <libunwind-ptrace.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "hang/sampler/binary_symbols.h"
#include "hang/sampler/module_unwind_tables.h"
#include "hang/sampler/mpi_classifier.h"
#include "base/proc_files.h"
#include "hang/sampler/stack_root.h"
#include "hang/sampler/stack_snapshot.h"
#include "hang/sampler/symbolizer.h"
#include "hang/sampler/unwind_signal_mask.h"

namespace jobsentry {
namespace {

SampleStatus status_for_errno(int err) {
    switch (err) {
        case ESRCH: return SampleStatus::gone;
        case EPERM:
        case EACCES: return SampleStatus::denied;
        default: return SampleStatus::error;
    }
}

// Waits for the seized thread to report a stop. Returns the signal to
// re-inject at detach (0 for our own interrupt or a group stop), -1 when the
// process is gone (its wait status, which we may have just consumed, goes to
// *exit_status), -2 on timeout.
//
// A running thread stops within microseconds: a few yields first. After
// that the tracee waits for a CPU (a busy or oversubscribed node): sleep in
// sigtimedwait until the kernel's SIGCHLD says a child changed state, rather
// than polling, so that waiting costs us no CPU time. A SIGCHLD taken here is
// raised again, so whoever waits for it (the watcher's loop) still sees one.
// SIGCHLD is blocked for that wait only, when first needed: a thread that stops
// at once costs no mask changes (the supervisor blocks it anyway).
int wait_for_stop(pid_t pid, double timeout, int* exit_status) {
    const double deadline = monotonic_now() + timeout;
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    bool blocked = false, restore = false, took_chld = false;
    int result = -2;
    for (int yields = 0;; ++yields) {
        int status = 0;
        pid_t r = waitpid(pid, &status, __WALL | WNOHANG);
        if (r == pid) {
            if (WIFEXITED(status) || WIFSIGNALED(status)) {
                *exit_status = status;
                result = -1;
                break;
            }
            if (!WIFSTOPPED(status)) continue;
            int event = status >> 16;
            // PTRACE_EVENT_STOP: our interrupt, or a group stop (SIGSTOP &c.)
            // that PTRACE_DETACH restores by itself. Anything else is a signal
            // on its way to the process: hand it back at detach.
            result = event == PTRACE_EVENT_STOP ? 0 : WSTOPSIG(status);
            break;
        }
        if (r < 0 && errno != EINTR) {
            result = -1;
            break;
        }
        const double now = monotonic_now();
        if (now > deadline) break;
        if (yields < 4) {
            sched_yield();
            continue;
        }
        if (!blocked) {  // then look again: a stop reported before the block raised no pending SIGCHLD
            blocked = true;
            restore = pthread_sigmask(SIG_BLOCK, &chld, &old) == 0;
            continue;
        }
        const double left = std::min(deadline - now, 0.01);
        timespec pause{0, static_cast<long>(left * 1e9)};
        if (sigtimedwait(&chld, nullptr, &pause) == SIGCHLD) took_chld = true;
    }
    if (took_chld) raise(SIGCHLD);
    if (restore) pthread_sigmask(SIG_SETMASK, &old, nullptr);
    return result;
}

// This thread's CPU time into a CpuCost: the whole sample always, and step by step when `steps`
// (a sample in StackWalker::kStepsTimedEvery: each reading of a CPU clock is a system call, about
// 2 us here, and the four laps were a fifth of a sample's system calls: strace of `jobsentry sample`
// counted 19.6 a sample).
class StepClock {
public:
    StepClock(CpuCost& cost, bool steps) : cost_(cost), steps_(steps), begin_(thread_cpu_now()), last_(begin_) {}
    ~StepClock() { cost_.add(CostStep::sample, thread_cpu_now() - begin_); }
    StepClock(const StepClock&) = delete;
    StepClock& operator=(const StepClock&) = delete;
    void lap(CostStep step) {
        if (!steps_) return;
        const double now = thread_cpu_now();
        cost_.add(step, now - last_);
        last_ = now;
    }

private:
    CpuCost& cost_;
    bool steps_;
    double begin_, last_;
};

// A stop signal (SIGSTOP, SIGTSTP, ...) that reached the thread while we held
// it is handed back at detach; but if a SIGCONT came after it, also while we
// held it, the sender's order was stop-then-continue, and the stop is not
// handed back. Belt and braces: Linux itself drops a stop signal injected
// after a SIGCONT it has seen, so this was not what made a throttled rank
// look hung (that was verification rounds taken back to back,
// Watcher::pause_until). A SIGCONT sent to a traced thread stays pending (it
// is not ignored under ptrace), so it can be seen.
bool stop_overtaken_by_continue(pid_t pid, int reinject) {
    if (reinject != SIGSTOP && reinject != SIGTSTP && reinject != SIGTTIN && reinject != SIGTTOU) return false;
    const auto status = read_bounded("/proc/" + std::to_string(pid) + "/status", 16384);
    return status && status_signal_pending(*status, SIGCONT).value_or(false);
}

bool traced_by_another(pid_t pid) {
    auto status = read_bounded("/proc/" + std::to_string(pid) + "/status", 16384);
    return status && status_traced(*status);
}

}  // namespace

struct StackWalker::ProcessCache {
    ProcessCache(pid_t pid, BinaryCache* binaries, UnwindSpaces* spaces)
        : symbols(pid, binaries), tables(pid), spaces(spaces) {
        space = spaces->take(&_UPT_accessors);
        snapshot_space = spaces->take(snapshot_accessors());
        upt = _UPT_create(pid);
    }
    ~ProcessCache() {
        if (upt) _UPT_destroy(upt);
        if (space) spaces->give_back(&_UPT_accessors, space);
        if (snapshot_space) spaces->give_back(snapshot_accessors(), snapshot_space);
    }
    unw_addr_space_t space = nullptr;           // unwinds the stopped thread itself (ptrace reads)
    unw_addr_space_t snapshot_space = nullptr;  // unwinds a StackSnapshot after the thread is let go
    void* upt = nullptr;
    StackSnapshot snapshot;  // reused: its buffer is allocated once per process
    uint64_t end_code = 0, start_stack = 0;      // the image this cache is of (ProcStat): execve changes them
    AddressRange stack;                           // the mapping of the stack pointer, last seen
    Symbolizer symbols;
    ModuleUnwindTables tables;  // the snapshot unwind's table lookups, a handle per code segment
    std::vector<std::pair<unw_word_t, bool>> pcs;  // the last unwind's PCs, and whether each is exact (innermost, signal)
    UnwindSpaces* spaces;  // where space and snapshot_space came from
};

StackWalker::StackWalker(StackWalkerOptions options) : options_(options) {}

StackWalker::~StackWalker() { reap_pending(); }

StackWalker::ProcessCache& StackWalker::cache_for(pid_t pid, const ProcStat& image) {
    auto it = caches_.find(pid);
    // A process that ran execve (a wrapper that execs the real program: numactl, a site's script)
    // keeps its pid and start time, not its image: what is cached of the old one would unwind and
    // name the new one's PCs wrongly, silently where both sit at the same addresses (no ASLR).
    if (it != caches_.end() &&
        (it->second->end_code != image.end_code || it->second->start_stack != image.start_stack)) {
        caches_.erase(it);
        it = caches_.end();
        ++exec_resets_;
    }
    if (it == caches_.end()) {
        it = caches_.emplace(pid, std::make_unique<ProcessCache>(pid, &binaries_, &spaces_)).first;
        it->second->end_code = image.end_code;
        it->second->start_stack = image.start_stack;
    }
    return *it->second;
}

ProcStatFiles& StackWalker::stat_files_for(pid_t pid) {
    auto it = stat_files_.find(pid);
    if (it == stat_files_.end()) {
        auto files = std::make_unique<ProcStatFiles>(pid, kept_open_ < kMaxKeptOpen);
        kept_open_ += files->keeps_open();
        it = stat_files_.emplace(pid, std::move(files)).first;
    }
    return *it->second;
}

void StackWalker::forget(pid_t pid) {
    caches_.erase(pid);
    if (auto it = stat_files_.find(pid); it != stat_files_.end()) {
        kept_open_ -= it->second->keeps_open();
        stat_files_.erase(it);
    }
}

void StackWalker::reap_pending() {
    for (auto it = pending_.begin(); it != pending_.end();) {
        int exit_status = -1;
        int sig = wait_for_stop(*it, 0, &exit_status);
        if (sig == -2) {
            ++it;
            continue;
        }
        if (sig >= 0) ptrace(PTRACE_DETACH, *it, nullptr, reinterpret_cast<void*>(static_cast<long>(sig)));
        if (exit_status != -1) exits_[*it] = exit_status;
        it = pending_.erase(it);
    }
}

bool StackWalker::is_pending(pid_t pid) const { return pending_.count(pid) > 0; }

std::optional<int> StackWalker::take_exit_status(pid_t pid) {
    auto it = exits_.find(pid);
    if (it == exits_.end()) return std::nullopt;
    int status = it->second;
    exits_.erase(it);
    return status;
}

StackSample StackWalker::sample(pid_t pid, uint64_t start_time) {
    cost_.sampler_steps_every = kStepsTimedEvery;
    // One sample of each block of 8 is timed, at an offset that moves on with each block: every 8th
    // sample of rounds of 4 is always a round's first, whose caches are the coldest (its stop/copy
    // measured 148 us against 84 us over every sample); the moving offset takes each place in turn.
    const uint64_t block = samples_ / kStepsTimedEvery;
    StepClock clock(cost_, samples_++ % kStepsTimedEvery == block % kStepsTimedEvery);
    if (!pending_.empty()) reap_pending();

    StackSample out;
    out.pid = pid;
    out.taken_at = monotonic_now();
    auto fail = [&](SampleStatus status, std::string what) {
        out.status = status;
        out.error = std::move(what);
        return out;
    };

    ProcStatFiles& files = stat_files_for(pid);
    auto stat = files.stat();
    if (!stat || (start_time != 0 && stat->start_time != start_time))
        return fail(SampleStatus::gone, "process no longer exists");
    if (stat->state == 'Z' || stat->state == 'X') return fail(SampleStatus::gone, "process is a zombie");
    out.state = stat->state;
    out.cpu_ticks = stat->cpu_ticks;
    auto main_thread = files.main_thread_stat();
    out.main_cpu_ticks = main_thread ? main_thread->cpu_ticks : stat->cpu_ticks;
    out.main_user_ticks = main_thread ? main_thread->user_ticks : stat->user_ticks;
    if (auto sched = files.main_thread_schedstat()) {
        out.sched_known = true;
        out.main_run_ns = sched->run_ns;
        out.main_wait_ns = sched->wait_ns;
    }
    if (pending_.count(pid)) return fail(SampleStatus::timeout, "an earlier stop is still pending");

    const double begin = monotonic_now();
    if (ptrace(PTRACE_SEIZE, pid, nullptr, nullptr) != 0) {
        int err = errno;
        if (err == EPERM && traced_by_another(pid))
            return fail(SampleStatus::busy, "traced by another process (a debugger?)");
        // A process that has exited but is not reaped yet refuses PTRACE_SEIZE
        // with EPERM too: it is gone, not a permission problem.
        if (err == EPERM) {
            const auto stat = read_proc_stat(pid);
            if (!stat || stat->state == 'Z' || stat->state == 'X')
                return fail(SampleStatus::gone, "process exited (a zombie, not yet reaped)");
        }
        return fail(status_for_errno(err), std::string("PTRACE_SEIZE: ") + std::strerror(err));
    }
    if (ptrace(PTRACE_INTERRUPT, pid, nullptr, nullptr) != 0) {
        int err = errno;
        // Seized but not stopped: the only way out is through a stop, so let
        // the pending list detach it when (if) the stop comes.
        pending_.insert(pid);
        return fail(status_for_errno(err), std::string("PTRACE_INTERRUPT: ") + std::strerror(err));
    }
    int exit_status = -1;
    int reinject = wait_for_stop(pid, options_.stop_timeout_seconds, &exit_status);
    if (reinject == -1) {
        // The tracer is told of the exit first: keep the status for the parent.
        if (exit_status != -1) exits_[pid] = exit_status;
        return fail(SampleStatus::gone, "process exited during the sample");
    }
    if (reinject == -2) {
        pending_.insert(pid);
        return fail(SampleStatus::timeout, "main thread did not stop (uninterruptible sleep?)");
    }

    out.stop_seconds = monotonic_now() - begin;
    ProcessCache& cache = cache_for(pid, *stat);
    auto let_go = [&] {
        if (stop_overtaken_by_continue(pid, reinject)) reinject = 0;
        const int detached = ptrace(PTRACE_DETACH, pid, nullptr, reinterpret_cast<void*>(static_cast<long>(reinject)));
        const int detach_errno = errno;
        if (detached != 0 && (detach_errno != ESRCH || kill(pid, 0) == 0)) {
            // ESRCH of a live process: it was not in a ptrace-stop after all and
            // is still ours; the pending reaper stops and detaches it, so it is
            // never left traced (seen once under the sanitizer build's timing).
            if (detach_errno == ESRCH) ptrace(PTRACE_INTERRUPT, pid, nullptr, nullptr);
            pending_.insert(pid);
        }
        out.held_seconds = monotonic_now() - begin;
    };
    // The unwind only collects the PCs; they are named afterwards, so that
    // each step's CPU time is read once per sample, not once per frame.
    auto unwind = [&](unw_addr_space_t space, void* arg) {
        unw_cursor_t cursor;
        cache.pcs.clear();
        UnwindSignalMaskScope unmasked;  // libunwind's per-frame sigprocmask calls (unwind_signal_mask.h)
        if (!space || !cache.upt || unw_init_remote(&cursor, space, arg) != 0) return false;
        for (int depth = 0; depth < options_.max_frames; ++depth) {
            unw_word_t ip = 0;
            if (unw_get_reg(&cursor, UNW_REG_IP, &ip) < 0 || ip == 0) break;
            cache.pcs.push_back({ip, depth == 0 || unw_is_signal_frame(&cursor) > 0});
            if (unw_step(&cursor) <= 0) break;
        }
        return true;
    };
    bool unwound;
    if (cache.snapshot_space && take_snapshot(pid, kSnapshotStackBytes, &cache.stack, &cache.snapshot)) {
        // Registers and the top of the stack copied: the thread goes on while we unwind the copy
        // (stack_snapshot.h; an NWChem rank was held 4 ms per sample, and ran 23 % slower watched),
        // unless the copy is not its whole stack: then it is held until the unwind is done.
        const bool whole = cache.snapshot.whole();
        if (whole) let_go();
        clock.lap(CostStep::stop_copy);
        SnapshotUnwind arg{&cache.snapshot, cache.upt, &cache.tables, &cache.symbols, {}, 0, !whole};
        SnapshotScope scope(&arg);
        unwound = unwind(cache.snapshot_space, &arg);
        table_lookups_ += arg.table_lookups;
        if (!whole) let_go();
    } else {
        clock.lap(CostStep::stop_copy);  // the unwind runs during the stop: the detach counts as unwind
        unwound = unwind(cache.space, cache.upt);
        let_go();
    }
    clock.lap(CostStep::unwind);
    out.frames.reserve(cache.pcs.size());
    for (const auto& [ip, exact] : cache.pcs) {
        // Caller frames hold return addresses: look up ip-1 so a call that
        // ends a function is attributed to that function.
        Symbol sym = cache.symbols.lookup(exact ? ip : ip - 1);
        Frame frame;
        frame.pc = ip;
        if (sym.function) frame.function = sym.function;
        if (sym.module) frame.module = sym.module;
        frame.mpi = sym.mpi_library;
        out.frames.push_back(std::move(frame));
    }
    clock.lap(CostStep::symbolize);
    out.cost_seconds = monotonic_now() - begin;
    if (!unwound || out.frames.empty()) return fail(SampleStatus::error, "libunwind could not start the unwind");
    for (auto& frame : out.frames) frame.mpi = frame.mpi || is_mpi_function_name(frame.function);
    out.in_mpi = stack_in_mpi(out.frames);
    // A stack cut at max_frames is deep, not astray: its outer frames are unknown.
    out.complete = out.frames.size() >= static_cast<size_t>(options_.max_frames) || reaches_thread_root(out.frames);
    clock.lap(CostStep::classify);
    out.status = SampleStatus::ok;
    return out;
}

}  // namespace jobsentry
