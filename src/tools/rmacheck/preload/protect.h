// Mode 1: loads and stores of RMA origin buffers seen without recompiling.
// The origin buffer of a Get (any access conflicts) or Put/Accumulate (stores
// conflict) is protected with mprotect until its epoch completes. The SIGSEGV
// handler runs on an alternate stack, is async-signal-safe (fixed tables, no
// allocation, no locks), records a hit only when the faulting address lies in
// the exact byte range of a pending buffer and the thread is not inside an MPI
// wrapper, lifts the page, and single-steps the instruction (trap flag) so the
// SIGTRAP handler can protect the page again. Window memory is never
// protected: Open MPI's shared-memory transport writes it with
// process_vm_writev, which fails on protected pages and retries forever.
#pragma once

#include <cstdint>

namespace rmacheck::protect {

struct Hit {
    uint64_t pc, addr;
    bool write;
    uint32_t thread = 0;  // kernel id of the thread that made the access
};

bool install();  // handlers + this thread's alternate stack; false if sigaltstack/sigaction fails
void add_window_memory(uint64_t lo, uint64_t hi);
void remove_window_memory(uint64_t lo);

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
