// Hardware watchpoints for mode 1 (see watchpoints.h). The slots are opened
// once, disabled, on the first thread that asks, and re-aimed with
// PERF_EVENT_IOC_MODIFY_ATTRIBUTES (one ioctl per piece) for each buffer.
#include "tools/rmacheck/preload/watchpoints.h"

#include "tools/rmacheck/preload/thread_id.h"
#include "tools/rmacheck/preload/thread_start.h"

#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <initializer_list>

#ifndef TRAP_PERF
#define TRAP_PERF 6  // si_code of a perf event's SIGTRAP (Linux 5.13)
#endif

namespace rmacheck::watch {

namespace {
constexpr int kSlots = 4;  // x86 DR0-DR3

int g_fd[kSlots] = {-1, -1, -1, -1};
unsigned g_busy = 0;
pid_t g_owner = 0;  // the thread whose accesses the slots watch
bool g_tried = false;
char g_parking;  // where a disabled slot points

perf_event_attr attr_for(uint64_t addr, uint64_t len, unsigned type, bool disabled) {
    perf_event_attr a;
    std::memset(&a, 0, sizeof a);
    a.type = PERF_TYPE_BREAKPOINT;
    a.size = sizeof a;
    a.bp_type = type;
    a.bp_addr = addr;
    a.bp_len = len;
    a.sample_period = 1;
    a.exclude_kernel = 1;  // MPI's copies in the kernel (process_vm_writev) are not the program's
    a.exclude_hv = 1;
    a.sigtrap = 1;
    a.remove_on_exec = 1;  // required with sigtrap
    a.disabled = disabled;
    return a;
}

// Some hypervisors accept breakpoint events but never deliver their traps (seen on a PVM guest:
// perf_event_open succeeds, the watched byte is written, no SIGTRAP). Watching with such slots
// would miss every race on a small buffer, so the slots are tried once on a byte of our own first:
// without a trap, small buffers are page-protected like large ones.
volatile sig_atomic_t g_probe_hits = 0;

bool slots_deliver_traps(int fd) {
    struct sigaction current;
    // The probe's trap needs the module's SIGTRAP handler (protect::install, before any track()).
    if (sigaction(SIGTRAP, nullptr, &current) != 0 || !(current.sa_flags & SA_SIGINFO) || !current.sa_sigaction)
        return false;
    perf_event_attr at = attr_for(reinterpret_cast<uint64_t>(&g_parking), HW_BREAKPOINT_LEN_1, HW_BREAKPOINT_W, false);
    if (ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &at) != 0) return false;
    *static_cast<volatile char*>(&g_parking) = 1;
    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    return g_probe_hits > 0;
}

bool open_slots() {
    if (g_tried) return g_owner == static_cast<pid_t>(this_thread());  // cached: asked on every small buffer
    g_tried = true;
    g_owner = static_cast<pid_t>(this_thread());
    int opened = 0, first = -1;
    for (int i = 0; i < kSlots; ++i) {
        perf_event_attr a = attr_for(reinterpret_cast<uint64_t>(&g_parking), HW_BREAKPOINT_LEN_1, HW_BREAKPOINT_W, true);
        g_fd[i] = static_cast<int>(syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
        if (g_fd[i] >= 0) ++opened, first = first < 0 ? i : first;
        else g_busy |= 1u << i;  // never usable
    }
    if (opened > 0 && !slots_deliver_traps(g_fd[first])) {
        for (int i = 0; i < kSlots; ++i)
            if (g_fd[i] >= 0) close(g_fd[i]), g_fd[i] = -1;
        g_busy = (1u << kSlots) - 1;
        opened = 0;
    }
    return opened > 0;
}

// Largest aligned piece (8, 4, 2 or 1 bytes) starting at a within [a, hi).
uint64_t piece_at(uint64_t a, uint64_t hi) {
    for (uint64_t len : {8u, 4u, 2u})
        if (a % len == 0 && a + len <= hi) return len;
    return 1;
}
}  // namespace

bool fits(uint64_t lo, uint64_t hi) {
    // The slots watch one thread: with threads of the program, pages (every thread faults).
    if (hi <= lo || program_threads() > 0 || !open_slots()) return false;
    int free_slots = 0, pieces = 0;
    for (int i = 0; i < kSlots; ++i)
        if (!(g_busy >> i & 1)) ++free_slots;
    for (uint64_t a = lo; a < hi; a += piece_at(a, hi)) ++pieces;
    return pieces <= free_slots;
}

unsigned arm(uint64_t lo, uint64_t hi, bool reads_too) {
    if (!fits(lo, hi)) return 0;
    unsigned used = 0;
    int slot = 0;
    for (uint64_t a = lo; a < hi;) {
        uint64_t len = piece_at(a, hi);
        while (g_busy >> slot & 1) ++slot;
        perf_event_attr at = attr_for(a, len, reads_too ? HW_BREAKPOINT_RW : HW_BREAKPOINT_W, false);
        if (ioctl(g_fd[slot], PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &at) != 0) {
            disarm(used);
            return 0;
        }
        g_busy |= 1u << slot;
        used |= 1u << slot;
        a += len;
    }
    return used;
}

void disarm(unsigned slots) {
    for (int i = 0; i < kSlots; ++i) {
        if (!(slots >> i & 1)) continue;
        ioctl(g_fd[i], PERF_EVENT_IOC_DISABLE, 0);
        g_busy &= ~(1u << i);
    }
}

bool is_hit(const siginfo_t* si) { return si->si_code == TRAP_PERF; }

bool is_probe(const siginfo_t* si) {
    if (si->si_addr != static_cast<void*>(&g_parking)) return false;
    g_probe_hits = g_probe_hits + 1;
    return true;
}

}  // namespace rmacheck::watch
