// The one reentry guard of the generated PMPI wrappers. A thread-local depth
// says "inside a wrapper": nested MPI calls (MPI's own use of its API) go
// straight to PMPI, and the SIGSEGV handler of mode 1 uses the same depth to
// tell MPI's own copies from the program's loads and stores. The outermost
// entry and exit also let mode 1 lift and restore its page protections, so MPI
// never meets a protected page (its transports would fail with EFAULT).
#pragma once

#include "trace_format.h"

#include <mpi.h>

namespace rmacheck {

using trace::CollKind;

extern bool g_enabled;  // JOBSENTRY_RMA_TRACE_DIR was set when the library was loaded
extern bool g_active;   // MPI_Init succeeded and the trace is open
extern thread_local int t_depth __attribute__((tls_model("initial-exec")));

void enter_outermost() noexcept;  // mode 1: collect faults seen so far, unprotect
void leave_outermost() noexcept;  // mode 1: protect what is still pending

class Reentry {
public:
    Reentry() noexcept {
        if (++t_depth == 1 && g_active) enter_outermost();
    }
    ~Reentry() {
        if (t_depth == 1 && g_active) leave_outermost();
        --t_depth;
    }
    Reentry(const Reentry&) = delete;
    Reentry& operator=(const Reentry&) = delete;
    bool outermost() const noexcept { return t_depth == 1 && g_enabled; }
};

// Called by the generated wrappers of collectives (class coll:* in the list); request: the
// request of a nonblocking collective (its completion is recorded by Wait/Test...), or nullptr.
void record_collective(const void* site, MPI_Comm comm, CollKind kind, int root, MPI_Request* request) noexcept;

}  // namespace rmacheck
