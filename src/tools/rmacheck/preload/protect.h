// Mode 1: loads and stores of RMA origin buffers and of window memory at the
// target, seen without recompiling.
// Origin side: the origin buffer of a Get (any access conflicts) or
// Put/Accumulate (stores conflict) is protected with mprotect until its epoch
// completes. The SIGSEGV handler runs on an alternate stack, is
// async-signal-safe (fixed tables, no allocation, no locks), records a hit only
// when the faulting address lies in the exact byte range of a pending buffer
// and the thread is not inside an MPI wrapper, lifts the page, and
// single-steps the instruction (trap flag) so the SIGTRAP handler can protect
// the page again.
// Target side: the pages of windows MPI allocated (Win_allocate,
// Win_allocate_shared) are protected while the rank runs outside MPI; the
// first accesses to each page within a span (from one synchronisation of the
// rank to the next: the records the happens-before analysis orders by) are
// recorded when they lie in the window's bytes (each at its faulting address,
// its width decoded later by the analysis); after 8 faults a page, and
// after 32 a whole window, stays open until the span ends. A window whose
// memory lies in a shared segment of a job on one node (Open MPI and MPICH
// place allocated windows so; peers load and store through their own
// mappings, hooks_handles.cpp) is *kept* closed inside MPI calls
// as well: MPI's own accesses there fault inside a wrapper and open the page
// for the span, and another thread's accesses while one is inside MPI are seen
// (a hybrid program's race with a Put at the target). A kept window goes back
// to being lifted inside MPI calls for good once its memory is given to an MPI
// call as a buffer (the kernel may copy it: CMA). Windows
// over the user's memory (Win_create, Win_create_dynamic) are not protected:
// Open MPI's shared-memory transport writes them with process_vm_writev, which
// fails with EFAULT on a protected page and is retried until the page opens.
#pragma once

#include <cstdint>

namespace rmacheck::protect {

struct Hit {
    uint64_t pc, addr;
    bool write;
    uint32_t thread = 0;  // kernel id of the thread that made the access
    bool at_instruction = false;  // pc is the access's own instruction (a fault), not one byte past it (a watchpoint)
};

bool install();  // handlers + this thread's alternate stack; false if sigaltstack/sigaction fails
// Window memory [lo, hi) of window `win` (origin buffers never share its pages). watch_target:
// protect it at the target (allocated windows); keep_closed: inside MPI calls too (see above);
// returns whether it is watched (false also when its pages do not fit the table, or in precise mode).
bool add_window_memory(uint64_t lo, uint64_t hi, uint32_t win, bool watch_target, bool keep_closed = false);
bool any_kept();
int kept_window_at(uint64_t addr);  // the kept window whose pages hold addr, or -1
bool window_kept(uint32_t win);
void stop_keeping(uint32_t win);    // lifted now (inside a wrapper) and inside MPI calls from now on
bool stop_keeping_all();            // every window; whether one was kept
void remove_window_memory(uint64_t lo);  // one attached range (Win_detach)
void remove_window(uint32_t win);        // all of a window's memory (Win_free: MPI frees allocated memory)
// A synchronisation was recorded: every watched window page is protected again at the next
// outermost exit (the next access is one of a new span).
void next_span();
// Whether spans are sampled (the default; JOBSENTRY_RMA_SAMPLING=off watches every one), and how
// many spans had a window watched, of all the spans that began with a window to watch.
void sample_spans(bool on);
void window_spans(uint64_t* watched, uint64_t* total);

// Track an origin buffer range of an operation until released. Returns false
// when it is not protected (shares a page with window memory, or tables full).
bool track(uint64_t lo, uint64_t hi, bool block_reads, uint32_t win, int target, uint64_t request);
void release_win(uint32_t win);
void release_target(uint32_t win, int target);
void release_request(uint64_t request);
bool any_pending();

void unprotect_all();  // outermost wrapper entry
void reprotect_all();  // outermost wrapper exit

// Precise mode: the same tables, never mprotect'ed; the instrumentation asks
// whether an access touches window memory or a pending origin buffer.
void set_track_only();
bool interesting(uint64_t addr, uint64_t size);

// Hits recorded by the handler since the last drain, in order; returns count.
int drain(Hit* out, int max);
bool hits_waiting();
uint64_t dropped_hits();

}  // namespace rmacheck::protect
