// Threads the program starts (pthread_create interposed): mode 1's watchpoints
// see only the thread that set them, so once the program has a thread of its own
// (OpenMP's pool, pthreads) small buffers are protected by pages instead, whose
// faults every thread takes. Threads started inside an MPI call (progress
// threads of the MPI library) are not the program's and are not counted.
#pragma once

namespace rmacheck {

// How many threads the program has started so far (never decreases: a joined
// thread may have touched a buffer watched later just the same as not).
int program_threads() noexcept;

// Whether the calling thread is one MPI started (it runs as if inside a wrapper for its whole life,
// so no outermost wrapper's return follows its accesses).
extern thread_local bool t_mpi_thread __attribute__((tls_model("initial-exec")));

}  // namespace rmacheck
