// Time stamps for the spin loop: a serialised TSC read (lfence; rdtsc) where
// the TSC is invariant, clock_gettime(CLOCK_MONOTONIC) otherwise. Both are
// read without a system call (the TSC directly, the monotonic clock through
// the vDSO), so the measurement loop stays in user space.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define JOBSENTRY_HAVE_TSC 1
#else
#define JOBSENTRY_HAVE_TSC 0
#endif

namespace jobsentry {

enum class ClockChoice { automatic, tsc, monotonic };

inline uint64_t monotonic_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

struct MonotonicClock {
    static uint64_t now() { return monotonic_ns(); }
};

#if JOBSENTRY_HAVE_TSC
struct TscClock {
    // lfence waits until every earlier instruction has completed, so the read
    // is not hoisted above the previous iteration's work (rdtsc alone may be).
    static uint64_t now() {
        _mm_lfence();
        return __rdtsc();
    }
};
#endif

// An invariant TSC ticks at one rate in every P-/C-state and on every core:
// CPUID 0x80000007 EDX bit 8, or the kernel's constant_tsc and nonstop_tsc
// flags in /proc/cpuinfo (a hypervisor may hide the CPUID bit but not the
// kernel's verdict).
bool tsc_is_invariant();

// TSC ticks per nanosecond, measured against CLOCK_MONOTONIC over about
// `span_ns`; each end is the TSC read between the two monotonic reads that lie
// closest together, so a preemption while calibrating does not skew it.
double calibrate_tsc_ticks_per_ns(uint64_t span_ns = 20000000);

}  // namespace jobsentry
