// Mode 1 page protection and the SIGSEGV/SIGTRAP handlers (see protect.h).
// Tables are fixed-size arrays: the handlers read them without locks and they
// change only inside MPI wrappers, when every page is unprotected. Under
// MPI_THREAD_MULTIPLE several threads are inside wrappers at once: the
// functions of protect.h that change or read the tables hold g_tables (not
// interesting(), precise mode's read on every access, where nothing is
// protected; the hits have their own flag).
#include "tools/rmacheck/preload/protect.h"

#include "tools/rmacheck/preload/shadow.h"

#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "tools/rmacheck/preload/guard.h"
#include "tools/rmacheck/preload/thread_id.h"
#include "tools/rmacheck/preload/thread_start.h"
#include "tools/rmacheck/preload/watchpoints.h"

namespace rmacheck::protect {

namespace {
constexpr int kMaxPending = 512, kMaxPages = 1024, kMaxWindows = 64, kMaxHits = 8192;
constexpr int kMaxWindowPages = 4096;  // 16 MiB of allocated window memory watched at the target
// Faults a watched window page takes per span: the first accesses of a span are each recorded (a
// small window's elements, touched by one loop, are all seen), then the page stays open.
constexpr uint8_t kFaultsPerSpan = 8;
// Faults a whole window takes per span: then all its pages open at once. A stencil sweeping a 4 MiB
// window every iteration would otherwise take 8 faults on each of its 1024 pages (12x its run time).
constexpr uint32_t kWindowFaultsPerSpan = 32;
// Faults MPI's own accesses (inside a wrapper) take on a kept page per span: the page closes again
// when the outermost wrapper returns (reprotect_all), as a program thread may touch it next in the
// same span (a Get into the window, then another thread reads it), then stays open. Not after the
// instruction: a single step is a second signal per access (perf, bench/rma/dht.c in mode 1: 11 % of
// its run in the kernel's debug-trap handler), and MPI's copy continues on the page.
constexpr uint8_t kMpiFaultsPerSpan = 4;
// Faults MPI's own accesses take on a whole window per span: then all its pages open at once. A
// Get-heavy code reading its own window (dht: about 256 local Gets a span over 1024 pages) otherwise
// takes a fault and two mprotects per local Get in every watched span (with both rules, dht's mode 1
// region went from 2.2x to about 1.45x native).
constexpr uint32_t kWindowMpiFaultsPerSpan = 32;
constexpr uint64_t kTrapFlag = 0x100;

constexpr uint64_t kMaxWatched = 32;  // 4 debug registers of 8 bytes

struct Pending {
    uint64_t lo, hi, request;
    uint32_t win;
    int target;
    bool block_reads;
    unsigned watch_slots;         // watched by debug registers instead of page protection
    uint8_t seen[kMaxWatched];    // its bytes when last seen: a watched access that changed them is a store
    unsigned hits;                // by the program: after kSaturation the race is known, the watch ends
};
constexpr unsigned kSaturation = 64;
constexpr unsigned kSaturated = 1u << 31;  // watch_slots of a buffer whose watch ended (no slot held)
struct Page {
    uint64_t addr;
    int prot;
};
struct WinMem {
    uint64_t lo, hi;
    uint32_t win;
    bool watched;         // protected at the target
    bool kept;            // and kept closed inside MPI calls too (add_window_memory)
    uint64_t first_span;  // the span it was created in
    uint32_t faults;      // taken on its pages in the current span (atomic builtins: the handler counts)
    uint32_t mpi_faults;  // of them, by MPI's own accesses
};
// A page of watched window memory. faults: taken in the current span (mpi_faults: by MPI's own
// accesses); open: left open until the span ends (after kFaultsPerSpan); kept: closed inside MPI
// calls too (all its windows are kept). Read and written by the handler, hence the atomic builtins.
struct WinPage {
    uint64_t addr;
    uint8_t open, faults, kept, mpi_faults;
};

// Taken by each function of protect.h that changes or reads the tables below, never by the signal
// handlers. Without it two threads' Puts recorded at once (rma_mpich_gcc_omp_master: the master's
// and thread 1's) wrote the same g_pending slot: a torn entry (thread 1's lo, the master's hi, far up
// on the main stack) had kMaxPages pages protected from thread 1's stack upwards, its TLS and thread
// control block among them, whose rseq area the kernel writes on the way back to the thread: the
// rank died of a SIGSEGV (SI_KERNEL) that no handler sees. Recursive: the functions call each other
// (release_if calls unprotect_all, stop_keeping_all stop_keeping). A leaf lock: taken after
// hooks.cpp's g_inside_mutex, nothing is locked while it is held.
std::recursive_mutex g_tables;
using TablesLock = std::lock_guard<std::recursive_mutex>;

Pending g_pending[kMaxPending];
int g_npending = 0;
Page g_pages[kMaxPages];
std::atomic<int> g_npages{0};
WinMem g_windows[kMaxWindows];
int g_nwindows = 0;
WinPage g_wpages[kMaxWindowPages];  // sorted by address
std::atomic<int> g_nwpages{0};
std::atomic<uint64_t> g_span{0};  // synchronisations recorded so far
// Odd while a page table is being changed (inside a wrapper, pages lifted): a fault that began before
// and misses the table then retries its instruction instead of giving the fault back.
std::atomic<uint32_t> g_table_change{0};
struct TableChange {
    TableChange() { g_table_change.fetch_add(1, std::memory_order_acq_rel); }
    ~TableChange() { g_table_change.fetch_add(1, std::memory_order_acq_rel); }
};
uint64_t g_armed_span = 0;        // the span the window pages were last closed for
// Spans sampled (tools/rmacheck/sampling.h does the same for origin buffers by call site): a
// window is watched in its first kSpansAlways spans, then in about kSpansAlways / age of them, so
// a code that synchronises a million times pays for a few hundred watched spans; a race is
// recorded in a watched span only, and the report says how many were watched.
constexpr uint64_t kSpansAlways = 64;
bool g_sample_spans = true;
uint64_t g_spans_total = 0, g_spans_watched = 0;
bool g_windows_armed = false;  // some window is watched in the current span (its pages may be protected)
Hit g_hits[kMaxHits];
std::atomic<int> g_nhits{0};
std::atomic<uint64_t> g_dropped{0};
bool g_protected = false;  // pages currently carry their protection
bool g_track_only = false; // precise mode: nothing is protected
uint64_t g_page = 4096;
struct sigaction g_old_segv, g_old_trap;

// Pages the single-step handler closed again, the last kReclosed of them. Another thread may take a
// page out of the tables between that handler's lookup and its mprotect (a flush of a hybrid
// program's other thread releasing the buffer: seen as a rank dying of SIGSEGV in
// rma_omp_sections, one run in many). The page then stays closed with no owner, and the next access
// to it, the program's, would get our fault. Such a fault is recognised here and the page opened:
// a failure of the checker must never kill the program.
constexpr int kReclosed = 64;
std::atomic<uint64_t> g_reclosed[kReclosed];
std::atomic<uint32_t> g_reclosed_next{0};

void remember_reclosed(uint64_t page) {
    g_reclosed[g_reclosed_next.fetch_add(1, std::memory_order_relaxed) % kReclosed].store(
        page, std::memory_order_release);
}

bool was_reclosed(uint64_t page) {
    for (const auto& slot : g_reclosed)
        if (slot.load(std::memory_order_acquire) == page) return true;
    return false;
}

thread_local uint64_t t_step_pages[4] __attribute__((tls_model("initial-exec")));
thread_local int t_nstep __attribute__((tls_model("initial-exec"))) = 0;

// A fault on no page of ours may still be one of ours: another thread (entering MPI) lifted the page
// and took it out of the tables (its flush released the buffer) between the fault and its handler,
// so the table changed before the handler could see it change. The access is then tried again once:
// it goes through if the page is open now. Only when the same address faults again, the tables
// unchanged (or after kForeignTries), is the fault given back. Giving it back at once took the
// handler out of the process (SIGSEGV's previous action restored) while pages were still protected:
// the next fault on one killed the rank (Open MPI's handler runs on the faulting stack, where a
// protected page cannot take the signal frame: SIGSEGV with SI_KERNEL; UCX's, under MPICH, prints a
// backtrace and ends the rank).
constexpr int kForeignTries = 8;
thread_local uint64_t t_foreign_addr __attribute__((tls_model("initial-exec"))) = 0;
thread_local uint32_t t_foreign_change __attribute__((tls_model("initial-exec"))) = 0;
thread_local int t_foreign_tries __attribute__((tls_model("initial-exec"))) = 0;

uint64_t page_of(uint64_t a) { return a & ~(g_page - 1); }

// g_pages is sorted by address (binary search here; runs of neighbours in one mprotect below).
int lower_page(uint64_t page, int n) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (g_pages[mid].addr < page) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

int find_page(uint64_t page) {
    int n = g_npages.load(std::memory_order_acquire);
    int i = lower_page(page, n);
    return i < n && g_pages[i].addr == page ? i : -1;
}

int find_wpage(uint64_t page) {
    int lo = 0, hi = g_nwpages.load(std::memory_order_acquire);
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (g_wpages[mid].addr < page) lo = mid + 1;
        else if (g_wpages[mid].addr > page) hi = mid;
        else return mid;
    }
    return -1;
}

bool page_open(int i) { return __atomic_load_n(&g_wpages[i].open, __ATOMIC_RELAXED) != 0; }
bool page_kept(int i) { return __atomic_load_n(&g_wpages[i].kept, __ATOMIC_RELAXED) != 0; }
// Whether a watched page not yet opened in this span carries its protection now: outside MPI calls
// every one, inside them (some thread in a wrapper) the kept ones only.
bool page_closed_now(int i) { return !page_open(i) && (g_protected || page_kept(i)); }

bool in_watched_window(uint64_t addr) {
    for (int i = 0; i < g_nwindows; ++i)
        if (g_windows[i].watched && addr >= g_windows[i].lo && addr < g_windows[i].hi) return true;
    return false;
}

bool watch_in_span(const WinMem& w, uint64_t span) {
    const uint64_t age = span - w.first_span;
    if (!g_sample_spans || age < kSpansAlways) return true;
    uint64_t h = (span ^ (static_cast<uint64_t>(w.win) << 40)) * 0x9E3779B97F4A7C15ULL;  // a fixed hash:
    h ^= h >> 29;                                                                            // runs repeat
    return h % age < kSpansAlways;
}

// The window pages pick(i) chooses get `prot`, one mprotect per run of neighbours.
template <class Pick> void protect_window_runs(int prot, Pick pick) {
    const int n = g_nwpages.load(std::memory_order_acquire);
    for (int i = 0; i < n;) {
        if (!pick(i)) {
            ++i;
            continue;
        }
        int j = i + 1;
        while (j < n && pick(j) && g_wpages[j].addr == g_wpages[j - 1].addr + g_page) ++j;
        mprotect(reinterpret_cast<void*>(g_wpages[i].addr), (j - i) * g_page, prot);
        i = j;
    }
}

// A new span: the pages of the windows watched in it are closed (their next access is one of the
// span's first), the others left open.
void arm_windows(uint64_t span) {
    const int nw = g_nwpages.load(std::memory_order_relaxed);
    static uint8_t was_closed[kMaxWindowPages];  // kept pages still protected from the last span
    for (int i = 0; i < nw; ++i) {
        was_closed[i] = page_kept(i) && !page_open(i);
        __atomic_store_n(&g_wpages[i].open, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&g_wpages[i].faults, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&g_wpages[i].mpi_faults, 0, __ATOMIC_RELAXED);
    }
    bool any = false;
    for (int k = 0; k < g_nwindows; ++k) {
        __atomic_store_n(&g_windows[k].faults, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&g_windows[k].mpi_faults, 0, __ATOMIC_RELAXED);
        const WinMem& w = g_windows[k];
        if (!w.watched || !watch_in_span(w, span)) continue;
        any = true;
        for (int i = find_wpage(page_of(w.lo)); i >= 0 && i < nw && g_wpages[i].addr < w.hi; ++i)
            __atomic_store_n(&g_wpages[i].open, 0, __ATOMIC_RELAXED);
    }
    // Kept pages are never lifted by a wrapper's entry: those of a window not watched in this span
    // are lifted here.
    protect_window_runs(PROT_READ | PROT_WRITE, [](int i) { return was_closed[i] && page_open(i); });
    ++g_spans_total;
    g_spans_watched += any;
    g_windows_armed = any;
}

// Counts a fault against the watched windows on `page` (the program's, or with by_mpi MPI's own);
// when one has spent that budget for the span, all its pages are opened (one mprotect) and true
// returned.
bool window_budget_spent(uint64_t page, bool by_mpi = false) {
    bool spent = false;
    const int nw = g_nwpages.load(std::memory_order_relaxed);
    for (int k = 0; k < g_nwindows; ++k) {
        WinMem& m = g_windows[k];
        if (!m.watched || page < page_of(m.lo) || page > page_of(m.hi - 1)) continue;
        if (by_mpi ? __atomic_add_fetch(&m.mpi_faults, 1, __ATOMIC_RELAXED) < kWindowMpiFaultsPerSpan
                   : __atomic_add_fetch(&m.faults, 1, __ATOMIC_RELAXED) < kWindowFaultsPerSpan)
            continue;
        spent = true;
        int i = find_wpage(page_of(m.lo));
        for (int j = i; j >= 0 && j < nw && g_wpages[j].addr < m.hi; ++j)
            __atomic_store_n(&g_wpages[j].open, 1, __ATOMIC_RELAXED);
        mprotect(reinterpret_cast<void*>(page_of(m.lo)), page_of(m.hi - 1) + g_page - page_of(m.lo),
                 PROT_READ | PROT_WRITE);
    }
    return spent;
}

// Calls mprotect once per run of adjacent pages that get the same protection: a batch of Gets into
// one array keeps two or three neighbouring pages pending, and every MPI call lifts and restores them.
template <class ProtOf> void protect_runs(int n, ProtOf prot_of) {
    for (int i = 0; i < n;) {
        int j = i + 1, prot = prot_of(g_pages[i]);
        while (j < n && g_pages[j].addr == g_pages[j - 1].addr + g_page && prot_of(g_pages[j]) == prot) ++j;
        mprotect(reinterpret_cast<void*>(g_pages[i].addr), (j - i) * g_page, prot);
        i = j;
    }
}

// Handlers of several threads, and drain(), share the hit table: a flag taken without waiting (a
// handler that finds it held drops its hit, counted, rather than spin on a thread it interrupted).
std::atomic_flag g_hits_busy = ATOMIC_FLAG_INIT;

void record_hit(uint64_t pc, uint64_t addr, bool write, bool at_instruction) {
    if (g_hits_busy.test_and_set(std::memory_order_acquire)) {
        g_dropped.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    struct Release {
        ~Release() { g_hits_busy.clear(std::memory_order_release); }
    } release;
    int n = g_nhits.load(std::memory_order_relaxed);
    // A loop touching the same byte from the same instruction is one hit.
    for (int i = n - 1; i >= 0 && i >= n - 16; --i)
        if (g_hits[i].pc == pc && g_hits[i].addr == addr && g_hits[i].write == write &&
            g_hits[i].thread == this_thread())
            return;
    if (n >= kMaxHits) {
        g_dropped.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    g_hits[n] = {pc, addr, write, this_thread(), at_instruction};
    g_nhits.store(n + 1, std::memory_order_release);
}

void on_segv(int sig, siginfo_t* si, void* ctx) {
    const uint32_t change = g_table_change.load(std::memory_order_acquire);
    auto* uc = static_cast<ucontext_t*>(ctx);
    uint64_t addr = reinterpret_cast<uint64_t>(si->si_addr);
    int idx = find_page(page_of(addr));
    bool write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
    if (idx < 0) {
        int w = find_wpage(page_of(addr));
        // One of the first accesses to a watched window page in this span: recorded when it is the
        // program's (not MPI's own, inside a wrapper) and lies in the window's bytes (the page may
        // hold other data). The page is closed again after the instruction, until its budget of
        // faults is spent; then it stays open until the span ends.
        if (w >= 0 && mprotect(reinterpret_cast<void*>(page_of(addr)), g_page, PROT_READ | PROT_WRITE) == 0) {
            // MPI's own access (a kept page, inside a wrapper): not recorded; the page, lifted now
            // but not marked open, closes again as the outermost wrapper returns
            // (kMpiFaultsPerSpan times), then stays open until the span ends. A thread MPI started
            // has no wrapper to return from: its access is stepped over and the page closed after it.
            if (t_depth != 0) {
                if (window_budget_spent(page_of(addr), true)) return;
                if (__atomic_add_fetch(&g_wpages[w].mpi_faults, 1, __ATOMIC_RELAXED) > kMpiFaultsPerSpan ||
                    (t_mpi_thread && t_nstep >= 4)) {
                    __atomic_store_n(&g_wpages[w].open, 1, __ATOMIC_RELAXED);
                    return;
                }
                if (t_mpi_thread) {
                    t_step_pages[t_nstep++] = page_of(addr);
                    uc->uc_mcontext.gregs[REG_EFL] |= kTrapFlag;
                }
                return;
            }
            if (in_watched_window(addr))
                record_hit(static_cast<uint64_t>(uc->uc_mcontext.gregs[REG_RIP]), addr, write, true);
            if (window_budget_spent(page_of(addr))) {
                __atomic_store_n(&g_wpages[w].open, 1, __ATOMIC_RELAXED);
                return;
            }
            if (__atomic_add_fetch(&g_wpages[w].faults, 1, __ATOMIC_RELAXED) >= kFaultsPerSpan ||
                !(g_protected || page_kept(w)) || t_nstep >= 4) {
                __atomic_store_n(&g_wpages[w].open, 1, __ATOMIC_RELAXED);
                return;
            }
            t_step_pages[t_nstep++] = page_of(addr);
            uc->uc_mcontext.gregs[REG_EFL] |= kTrapFlag;
            return;
        }
        // A table changing meanwhile: the page may have been ours and be open now; try again.
        if ((change & 1) || g_table_change.load(std::memory_order_acquire) != change) return;
        // Closed by our single step after it left the tables: open it, and the access goes on.
        if (si->si_code == SEGV_ACCERR && was_reclosed(page_of(addr)) &&
            mprotect(reinterpret_cast<void*>(page_of(addr)), g_page, PROT_READ | PROT_WRITE) == 0)
            return;
        // Maybe lifted and released by another thread before this handler ran: tried again first.
        if (addr != t_foreign_addr || (change != t_foreign_change && t_foreign_tries < kForeignTries)) {
            t_foreign_tries = addr == t_foreign_addr ? t_foreign_tries + 1 : 1;
            t_foreign_addr = addr, t_foreign_change = change;
            return;
        }
        t_foreign_addr = 0, t_foreign_tries = 0;
        // Not our protection: let the fault happen as it would without us.
        sigaction(SIGSEGV, &g_old_segv, nullptr);
        (void)sig;
        return;
    }
    if (t_depth == 0) {  // inside a wrapper it is MPI's own copy
        for (int i = 0; i < g_npending; ++i) {
            const Pending& p = g_pending[i];
            if (addr >= p.lo && addr < p.hi && (write || p.block_reads)) {
                record_hit(static_cast<uint64_t>(uc->uc_mcontext.gregs[REG_RIP]), addr, write, true);
                break;
            }
        }
    }
    mprotect(reinterpret_cast<void*>(page_of(addr)), g_page, PROT_READ | PROT_WRITE);
    // While protections are being lifted (a wrapper's entry touching a protected stack page) the
    // page simply stays open; otherwise step over the access and close it again.
    if (!g_protected) return;
    if (t_nstep < 4) t_step_pages[t_nstep++] = page_of(addr);
    uc->uc_mcontext.gregs[REG_EFL] |= kTrapFlag;
}

// A debug-register hit: the trap comes after the access, so RIP is the next
// instruction (RIP - 1 lies in the access's own bytes). Reads and stores of a
// Get's buffer trap alike; a store is told by the bytes having changed.
void on_watch_hit(const siginfo_t* si, const ucontext_t* uc) {
    uint64_t addr = reinterpret_cast<uint64_t>(si->si_addr);
    for (int i = 0; i < g_npending; ++i) {
        Pending& p = g_pending[i];
        if (!p.watch_slots || addr < p.lo || addr >= p.hi) continue;
        // Read through the kernel: a plain read would hit the watchpoint again.
        uint8_t now[kMaxWatched];
        iovec local{now, p.hi - p.lo}, remote{reinterpret_cast<void*>(p.lo), p.hi - p.lo};
        bool readable = process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == static_cast<ssize_t>(p.hi - p.lo);
        bool write = !p.block_reads || (readable && std::memcmp(p.seen, now, p.hi - p.lo) != 0);
        if (write && readable) std::memcpy(p.seen, now, p.hi - p.lo);
        if (t_depth != 0) return;  // inside a wrapper it is MPI's own copy
        record_hit(static_cast<uint64_t>(uc->uc_mcontext.gregs[REG_RIP]) - 1, addr, write, false);
        // A program spinning on the buffer (a hang of bug class 2) would trap on every iteration:
        // once the race is recorded many times over, stop watching (slots are only changed
        // inside wrappers otherwise, so this cannot race with arm()).
        if (++p.hits >= kSaturation && p.watch_slots != kSaturated) {
            watch::disarm(p.watch_slots);
            p.watch_slots = kSaturated;
        }
        return;
    }
}

void on_trap(int sig, siginfo_t* si, void* ctx) {
    auto* uc = static_cast<ucontext_t*>(ctx);
    if (watch::is_hit(si)) {
        if (!watch::is_probe(si)) on_watch_hit(si, uc);
        return;
    }
    if (t_nstep == 0) {  // not our single step: pass it on
        if (g_old_trap.sa_flags & SA_SIGINFO) {
            if (g_old_trap.sa_sigaction) g_old_trap.sa_sigaction(sig, si, ctx);
        } else if (g_old_trap.sa_handler != SIG_DFL && g_old_trap.sa_handler != SIG_IGN) {
            g_old_trap.sa_handler(sig);
        }
        return;
    }
    for (int i = 0; i < t_nstep; ++i) {
        int idx = find_page(t_step_pages[i]);
        if (idx >= 0 && g_protected) {
            remember_reclosed(g_pages[idx].addr);
            mprotect(reinterpret_cast<void*>(g_pages[idx].addr), g_page, g_pages[idx].prot);
        } else if (int w = find_wpage(t_step_pages[i]); w >= 0 && page_closed_now(w)) {
            remember_reclosed(t_step_pages[i]);
            mprotect(reinterpret_cast<void*>(t_step_pages[i]), g_page, PROT_NONE);
        }
    }
    t_nstep = 0;
    uc->uc_mcontext.gregs[REG_EFL] &= ~static_cast<greg_t>(kTrapFlag);
}

bool touches_window(uint64_t lo, uint64_t hi) {
    for (int i = 0; i < g_nwindows; ++i)
        if (page_of(lo) < g_windows[i].hi && page_of(hi - 1) + g_page > page_of(g_windows[i].lo)) return true;
    return false;
}

// Adds a pending range's pages to the sorted page table (called with pages unprotected). A page
// shared by a Get's result (no access) and a Put's origin (read only) gets no access.
// changed(page, prot) is called for every page added or made stricter.
template <class Changed> int add_pages(const Pending& p, int n, Changed changed) {
    if (p.watch_slots) return n;
    const int prot = p.block_reads ? PROT_NONE : PROT_READ;
    for (uint64_t pg = page_of(p.lo); pg < p.hi; pg += g_page) {
        int j = lower_page(pg, n);
        if (j < n && g_pages[j].addr == pg) {
            if (prot == PROT_NONE && g_pages[j].prot != PROT_NONE) {
                g_pages[j].prot = PROT_NONE;
                changed(pg, prot);
            }
        } else if (n < kMaxPages) {
            std::memmove(&g_pages[j + 1], &g_pages[j], (n - j) * sizeof(Page));
            g_pages[j] = {pg, prot};
            ++n;
            changed(pg, prot);
        }
    }
    return n;
}

// Pages in the table are marked MADV_DONTDUMP (left out of a core dump while pending; MADV_DODUMP
// when they leave): the mark keeps them a mapping (VMA) of their own, so that lifting and restoring
// them, on every MPI call, changes that mapping's protection in place instead of splitting the heap's
// mapping and merging it back each time (half the cost of an mprotect, measured).
void mark_runs(const Page* pages, int n, int advice) {
    for (int i = 0; i < n;) {
        int j = i + 1;
        while (j < n && pages[j].addr == pages[j - 1].addr + g_page) ++j;
        madvise(reinterpret_cast<void*>(pages[i].addr), (j - i) * g_page, advice);
        i = j;
    }
}

// Rebuilds the page table from the pending ranges (called with pages unprotected).
void rebuild_pages() {
    TableChange changing;
    static Page old[kMaxPages], gone[kMaxPages];
    int before = g_npages.load(std::memory_order_relaxed);
    std::memcpy(old, g_pages, before * sizeof(Page));
    int n = 0;
    for (int i = 0; i < g_npending; ++i) n = add_pages(g_pending[i], n, [](uint64_t, int) {});
    g_npages.store(n, std::memory_order_release);
    int ngone = 0;
    for (int i = 0; i < before; ++i)
        if (find_page(old[i].addr) < 0) gone[ngone++] = old[i];
    mark_runs(gone, ngone, MADV_DODUMP);
}

template <class Pred> void release_if(Pred pred) {
    int k = 0;
    for (int i = 0; i < g_npending; ++i) {
        if (!pred(g_pending[i])) {
            g_pending[k++] = g_pending[i];
            continue;
        }
        if (g_pending[i].watch_slots) watch::disarm(g_pending[i].watch_slots);
        shadow::unmark(g_pending[i].lo, g_pending[i].hi);
    }
    if (k == g_npending) return;
    g_npending = k;
    bool was = g_protected;
    if (was) unprotect_all();
    rebuild_pages();
    if (was) reprotect_all();
}
// Adds the pages of [lo, hi) to the window page table, closed (called inside a wrapper, with every
// page lifted); false, and nothing added, when they do not all fit.
bool add_window_pages(uint64_t lo, uint64_t hi, bool kept) {
    int n = g_nwpages.load(std::memory_order_relaxed);
    const uint64_t first = page_of(lo), last = page_of(hi - 1);
    if (static_cast<uint64_t>(n) + (last - first) / g_page + 1 > static_cast<uint64_t>(kMaxWindowPages)) return false;
    // Memory whose pages cannot be changed one at a time (huge pages: EINVAL) is not watched.
    if (mprotect(reinterpret_cast<void*>(first), g_page, PROT_READ | PROT_WRITE) != 0) return false;
    TableChange changing;
    for (uint64_t pg = first; pg <= last; pg += g_page) {
        int j = 0;
        while (j < n && g_wpages[j].addr < pg) ++j;
        if (j < n && g_wpages[j].addr == pg) {  // shared with another watched window: kept if both are
            g_wpages[j].kept = g_wpages[j].kept && kept;
            continue;
        }
        std::memmove(&g_wpages[j + 1], &g_wpages[j], (n - j) * sizeof(WinPage));
        g_wpages[j] = {pg, 0, 0, kept, 0};
        ++n;
    }
    g_nwpages.store(n, std::memory_order_release);
    return true;
}

// Window memory left the table: the page table again from the windows still watched (inside a
// wrapper: the pages that leave are lifted, and stay so).
template <class Gone> void remove_windows(Gone gone) {
    int k = 0;
    bool watched_gone = false;
    for (int i = 0; i < g_nwindows; ++i) {
        if (!gone(g_windows[i])) {
            g_windows[k++] = g_windows[i];
            continue;
        }
        shadow::unmark(g_windows[i].lo, g_windows[i].hi);
        watched_gone = watched_gone || g_windows[i].watched;
    }
    g_nwindows = k;
    if (!watched_gone) return;
    bool was = g_protected;
    if (was) unprotect_all();
    TableChange changing;
    g_nwpages.store(0, std::memory_order_release);
    for (int i = 0; i < g_nwindows; ++i)
        if (g_windows[i].watched) add_window_pages(g_windows[i].lo, g_windows[i].hi, g_windows[i].kept);
    if (was) reprotect_all();
}
}  // namespace

bool add_window_memory(uint64_t lo, uint64_t hi, uint32_t win, bool watch_target, bool keep_closed) {
    TablesLock lock(g_tables);
    bool watched = false;
    if (hi > lo && g_nwindows < kMaxWindows) {
        keep_closed = keep_closed && watch_target;
        watched = watch_target && !g_track_only && add_window_pages(lo, hi, keep_closed);
        g_windows[g_nwindows++] = {lo, hi, win, watched, watched && keep_closed,
                                   g_span.load(std::memory_order_relaxed), 0, 0};
        shadow::mark(lo, hi);
    }
    // A buffer already tracked on these pages must not stay protected.
    release_if([&](const Pending& p) { return touches_window(p.lo, p.hi); });
    return watched;
}

void remove_window_memory(uint64_t lo) {
    TablesLock lock(g_tables);
    remove_windows([lo](const WinMem& w) { return w.lo == lo; });
}

void remove_window(uint32_t win) {
    TablesLock lock(g_tables);
    remove_windows([win](const WinMem& w) { return w.win == win; });
}

bool any_kept() {
    TablesLock lock(g_tables);
    for (int i = 0; i < g_nwindows; ++i)
        if (g_windows[i].kept) return true;
    return false;
}

int kept_window_at(uint64_t addr) {
    TablesLock lock(g_tables);
    for (int i = 0; i < g_nwindows; ++i)
        if (g_windows[i].kept && addr >= page_of(g_windows[i].lo) && addr < page_of(g_windows[i].hi - 1) + g_page)
            return static_cast<int>(g_windows[i].win);
    return -1;
}

bool window_kept(uint32_t win) {
    TablesLock lock(g_tables);
    for (int i = 0; i < g_nwindows; ++i)
        if (g_windows[i].win == win && g_windows[i].kept) return true;
    return false;
}

void stop_keeping(uint32_t win) {
    TablesLock lock(g_tables);
    for (int k = 0; k < g_nwindows; ++k) {
        WinMem& m = g_windows[k];
        if (m.win != win || !m.kept) continue;
        m.kept = false;
        const int nw = g_nwpages.load(std::memory_order_relaxed);
        for (int i = find_wpage(page_of(m.lo)); i >= 0 && i < nw && g_wpages[i].addr < m.hi; ++i)
            __atomic_store_n(&g_wpages[i].kept, 0, __ATOMIC_RELAXED);
        // Inside a wrapper (the caller's): lifted now, as the other windows' pages are.
        mprotect(reinterpret_cast<void*>(page_of(m.lo)), page_of(m.hi - 1) + g_page - page_of(m.lo),
                 PROT_READ | PROT_WRITE);
    }
}

bool stop_keeping_all() {
    TablesLock lock(g_tables);
    bool any = false;
    for (int k = 0; k < g_nwindows; ++k)
        if (g_windows[k].kept) stop_keeping(g_windows[k].win), any = true;
    return any;
}

void next_span() { g_span.fetch_add(1, std::memory_order_relaxed); }

void sample_spans(bool on) { g_sample_spans = on; }

void window_spans(uint64_t* watched, uint64_t* total) {
    TablesLock lock(g_tables);
    *watched = g_spans_watched, *total = g_spans_total;
}

bool install() {
    g_page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    stack_t ss{};
    ss.ss_size = 64 * 1024;
    ss.ss_sp = mmap(nullptr, ss.ss_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ss.ss_sp == MAP_FAILED || sigaltstack(&ss, nullptr) != 0) return false;
    struct sigaction sa{};
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sa.sa_sigaction = on_segv;
    if (sigaction(SIGSEGV, &sa, &g_old_segv) != 0) return false;
    sa.sa_sigaction = on_trap;
    return sigaction(SIGTRAP, &sa, &g_old_trap) == 0;
}


bool track(uint64_t lo, uint64_t hi, bool block_reads, uint32_t win, int target, uint64_t request) {
    TablesLock lock(g_tables);
    if (hi <= lo || g_npending >= kMaxPending) return false;
    // (fits() before reading the bytes: a buffer that ends up page-protected may share a page that
    // already is, and that read would fault.)
    if (!g_track_only && hi - lo <= kMaxWatched && watch::fits(lo, hi)) {
        // Small buffers are watched byte-exactly: a page protection faults on every unrelated
        // access to the page (on the stack: every push and spill) and costs more to set.
        Pending& p = g_pending[g_npending];
        p = {lo, hi, request, win, target, block_reads, 0, {}, 0};
        std::memcpy(p.seen, reinterpret_cast<const void*>(lo), hi - lo);  // before arming
        if ((p.watch_slots = watch::arm(lo, hi, block_reads)) != 0) {
            ++g_npending;
            shadow::mark(lo, hi);
            return true;
        }
    }
    if (touches_window(lo, hi)) return false;
    g_pending[g_npending] = {lo, hi, request, win, target, block_reads, 0, {}, 0};
    shadow::mark(lo, hi);
    // Inside a wrapper the pages are lifted; otherwise (never today) only new or stricter pages change.
    const bool on = g_protected;
    TableChange changing;  // a handler missing its page in the table meanwhile retries its instruction
    g_npages.store(add_pages(g_pending[g_npending++], g_npages.load(std::memory_order_relaxed),
                             [on](uint64_t pg, int prot) {
                                 madvise(reinterpret_cast<void*>(pg), g_page, MADV_DONTDUMP);
                                 if (on) mprotect(reinterpret_cast<void*>(pg), g_page, prot);
                             }),
                   std::memory_order_release);
    return true;
}

void release_win(uint32_t win) {
    TablesLock lock(g_tables);
    release_if([&](const Pending& p) { return p.win == win; });
}
void release_target(uint32_t win, int target) {
    TablesLock lock(g_tables);
    release_if([&](const Pending& p) { return p.win == win && p.target == target; });
}
void release_request(uint64_t request) {
    TablesLock lock(g_tables);
    release_if([&](const Pending& p) { return request != 0 && p.request == request; });
}
bool any_pending() {
    TablesLock lock(g_tables);
    return g_npending > 0;
}

void unprotect_all() {
    TablesLock lock(g_tables);
    if (!g_protected) return;
    g_protected = false;
    protect_runs(g_npages.load(std::memory_order_acquire), [](const Page&) { return PROT_READ | PROT_WRITE; });
    // All of them: a page another thread's single step closed again just after it was opened may be
    // marked open and still be protected, and MPI must never meet one. In a span that watches no
    // window every page is open already: nothing to do on this path, taken by every MPI call.
    if (g_windows_armed) protect_window_runs(PROT_READ | PROT_WRITE, [](int i) { return !page_kept(i); });
}

void reprotect_all() {
    TablesLock lock(g_tables);
    if (g_track_only) return;
    int n = g_npages.load(std::memory_order_acquire), nw = g_nwpages.load(std::memory_order_acquire);
    if (n == 0 && nw == 0) return;
    if (uint64_t span = g_span.load(std::memory_order_relaxed); span != g_armed_span && nw > 0) {
        arm_windows(span);
        g_armed_span = span;
    }
    g_protected = true;
    if (n) protect_runs(n, [](const Page& p) { return p.prot; });
    if (g_windows_armed) protect_window_runs(PROT_NONE, [](int i) { return !page_open(i); });
}

void set_track_only() { g_track_only = true; }

bool interesting(uint64_t addr, uint64_t size) {
    uint64_t end = addr + size;
    for (int i = 0; i < g_nwindows; ++i)
        if (addr < g_windows[i].hi && end > g_windows[i].lo) return true;
    for (int i = 0; i < g_npending; ++i)
        if (addr < g_pending[i].hi && end > g_pending[i].lo) return true;
    return false;
}

int drain(Hit* out, int max) {
    while (g_hits_busy.test_and_set(std::memory_order_acquire)) sched_yield();
    int n = g_nhits.load(std::memory_order_acquire);
    int k = n < max ? n : max;
    for (int i = 0; i < k; ++i) out[i] = g_hits[i];
    std::memmove(g_hits, g_hits + k, (n - k) * sizeof(Hit));  // the rest for the next call
    g_nhits.store(n - k, std::memory_order_release);
    g_hits_busy.clear(std::memory_order_release);
    return k;
}

bool hits_waiting() { return g_nhits.load(std::memory_order_acquire) > 0; }

uint64_t dropped_hits() { return g_dropped.load(); }

}  // namespace rmacheck::protect
