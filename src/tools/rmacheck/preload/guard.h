// The reentry guard of the RMA checker's generated PMPI wrappers (tools/mpiwrap/reentry.h). A thread-local depth
// says "inside a wrapper": nested MPI calls (MPI's own use of its API) go
// straight to PMPI, and the SIGSEGV handler of mode 1 uses the same depth to
// tell MPI's own copies from the program's loads and stores. The outermost
// entry and exit also let mode 1 lift and restore its page protections, so MPI
// never meets a protected page (its transports would fail with EFAULT).
#pragma once

#include "tools/mpiwrap/reentry.h"
#include "tools/rmacheck/trace_format.h"

#include <mpi.h>

namespace rmacheck {

using trace::CollKind;

extern bool g_enabled;  // JOBSENTRY_RMA_TRACE_DIR was set when the library was loaded
extern bool g_active;   // MPI_Init succeeded and the trace is open
extern thread_local int t_depth __attribute__((tls_model("initial-exec")));

// Mode 1: collect faults seen so far, unprotect; buffers and win: the call's (see hooks.cpp).
void enter_outermost(std::initializer_list<const void*> buffers, MPI_Win win) noexcept;
void leave_outermost() noexcept;  // mode 1: protect what is still pending

// What mpiwrap::Reentry needs of this module: the depth above, the wrappers act
// once the library was enabled, and mode 1's work on the outermost entry and exit.
struct RmaModule {
    static int& depth() noexcept { return t_depth; }
    static bool on() noexcept { return g_enabled; }
    static void enter(std::initializer_list<const void*> buffers, MPI_Win win) noexcept {
        if (g_active) enter_outermost(buffers, win);
    }
    static void leave() noexcept {
        if (g_active) leave_outermost();
    }
};
using Reentry = mpiwrap::Reentry<RmaModule>;

// Called by the generated wrappers of collectives (class coll:* in the list); request: the
// request of a nonblocking collective (its completion is recorded by Wait/Test...), or nullptr.
void record_collective(const void* site, MPI_Comm comm, CollKind kind, int root, MPI_Request* request) noexcept;

}  // namespace rmacheck
