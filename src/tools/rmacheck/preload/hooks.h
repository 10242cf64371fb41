// Hand-written logic behind the generated wrappers: what each MPI call records
// in the trace, and (mode 1) which origin buffers it protects or releases.
#pragma once

#include "tools/rmacheck/preload/guard.h"
#include "wrappers_gen.h"

namespace rmacheck {

// Mode 2: accesses reported by the instrumentation runtime (tsan_runtime.cpp)
// are appended here and written at the next MPI call, in program order.
void record_local(uint64_t pc, uint64_t addr, uint32_t size, bool write) noexcept;
void enable_precise() noexcept;  // tsan_runtime.cpp: start keeping instrumented accesses
// OpenMP synchronisation seen through OMPT (openmp_runtime.cpp): an omp record of the calling
// thread (trace_format.h, OmpKind), after the loads/stores buffered so far.
void record_omp(uint8_t kind, uint64_t a, uint64_t b) noexcept;

}  // namespace rmacheck
