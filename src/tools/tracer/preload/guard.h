// The tracer's side of the shared reentry guard (tools/mpiwrap/reentry.h) and its
// clock. The wrappers act once JOBSENTRY_TRACE_DIR was found at load time;
// between MPI_Init and MPI_Finalize (g_active) the after_/on_ functions record.
#pragma once

#include <time.h>

#include <cstdint>

#include "tools/mpiwrap/reentry.h"

namespace jobtrace {

extern bool g_enabled;  // JOBSENTRY_TRACE_DIR was set when the library was loaded
extern bool g_active;   // MPI_Init succeeded and the trace file is open
extern thread_local int t_depth __attribute__((tls_model("initial-exec")));

struct TraceModule {
    static int& depth() noexcept { return t_depth; }
    static bool on() noexcept { return g_enabled; }
    static void enter(std::initializer_list<const void*>, MPI_Win) noexcept {}
    static void leave() noexcept {}
};
using Reentry = mpiwrap::Reentry<TraceModule>;

// CLOCK_MONOTONIC through the vDSO: about 20 ns, no system call.
inline std::uint64_t now_ns() noexcept {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

}  // namespace jobtrace
