// Analysis at MPI_Finalize, when asked: JOBSENTRY_RMA_AT_FINALIZE holds the
// absolute path of the jobsentry program. Every rank has closed its trace and
// met the others in a barrier before MPI_Finalize; afterwards rank 0 runs
// `jobsentry rma-report --report TRACE_DIR/report.json TRACE_DIR` (spawned
// without a shell and without LD_PRELOAD, waited for), so the findings appear
// in the job's own output. The program's exit status is never changed.
#pragma once

namespace rmacheck::finalize {

// Read once at MPI_Init: whether the analysis was asked for (same on all ranks).
bool asked();
// After PMPI_Finalize, on rank 0 only.
void run_analysis(const char* trace_dir);

}  // namespace rmacheck::finalize
