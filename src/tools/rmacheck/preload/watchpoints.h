// Mode 1 for small origin buffers (up to 32 bytes): hardware watchpoints.
// mprotect works on whole pages, and a local variable's page is the page the
// stack pointer runs on, so every call, push and spill until the epoch ends
// faults and is single-stepped (a lock-based counter with stack buffers ran
// 7.6-9.9x slower); on the heap, neighbours on the page fault too. The x86
// debug registers watch the buffer's exact bytes instead: perf_event_open(PERF_TYPE_BREAKPOINT) on the calling thread, with
// `sigtrap` so an access raises a synchronous SIGTRAP (si_code TRAP_PERF)
// after the instruction. Four registers: a buffer that needs more aligned
// 1/2/4/8-byte pieces than are free, a thread other than the one that opened
// them, or a kernel that refuses perf events, or whose slots never trap (tried once on
// a byte of the module's own: some hypervisors accept the event and deliver nothing),
// falls back to mprotect.
#pragma once

#include <signal.h>

#include <cstdint>

namespace rmacheck::watch {

// Watches [lo, hi) exactly (any access when reads_too, else stores); returns
// the slots used as a bit mask, 0 when it cannot (then use mprotect).
unsigned arm(uint64_t lo, uint64_t hi, bool reads_too);
// Whether arm() has slots for [lo, hi) now (asked before reading the buffer's bytes: a buffer that
// will be page-protected may share a page that already is).
bool fits(uint64_t lo, uint64_t hi);
void disarm(unsigned slots);

// In the SIGTRAP handler: the trap is one of ours.
bool is_hit(const siginfo_t* si);
// ...and of those, the probe that shows the slots deliver traps at all (then nothing else to do).
bool is_probe(const siginfo_t* si);

}  // namespace rmacheck::watch
