// Start and end of the trace: the library is enabled when JOBSENTRY_TRACE_DIR
// is set at load time (jobsentry trace sets it; mpirun and other processes
// that never call MPI_Init stay untouched), opens rank-N.jstrace when MPI_Init
// returns and writes the trailer at MPI_Finalize.
#include <cstdio>
#include <cstdlib>

#include "tools/tracer/preload/guard.h"
#include "tools/tracer/preload/handles.h"
#include "tools/tracer/preload/record_buffer.h"
#include "wrappers_gen.h"

namespace jobtrace {

bool g_enabled = false;
bool g_active = false;
thread_local int t_depth __attribute__((tls_model("initial-exec"))) = 0;

namespace {

__attribute__((constructor)) void read_environment() {
    const char* dir = std::getenv("JOBSENTRY_TRACE_DIR");
    g_enabled = dir && *dir;
}

void start_trace(int rc) {
    if (rc != MPI_SUCCESS) return;
    int rank = 0, size = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    std::string error = records().open(std::getenv("JOBSENTRY_TRACE_DIR"), rank, size, now_ns());
    if (!error.empty()) {
        std::fprintf(stderr, "jobsentry[trace rank %d]: warning: %s; this rank is not traced\n", rank, error.c_str());
        return;
    }
    g_active = true;
}

}  // namespace

int on_MPI_Init(const void*, int* argc, char*** argv) {
    int rc = PMPI_Init(argc, argv);
    start_trace(rc);
    return rc;
}

int on_MPI_Init_thread(const void*, int* argc, char*** argv, int required, int* provided) {
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    start_trace(rc);
    return rc;
}

int on_MPI_Finalize(const void*) {
    if (g_active) {
        g_active = false;
        records().close();
    }
    return PMPI_Finalize();
}

int on_MPI_Comm_free(const void*, MPI_Comm* comm) {
    if (g_active) communicators().forget(*comm);
    return PMPI_Comm_free(comm);
}

}  // namespace jobtrace
