// This rank's trace file (DIR/rank-N.jstrace): records are copied into a 4 MiB
// buffer and written with write(2) only when it fills and at MPI_Finalize, so
// a call costs a copy of 40 bytes. Not locked: one thread is expected to call
// MPI (MPI_THREAD_MULTIPLE programs are not supported, docs/simulator.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "tools/tracer/trace_records.h"

namespace jobtrace {

class RecordBuffer {
public:
    // Creates the file and writes the header; returns an error text, empty on success.
    std::string open(const std::string& dir, int rank, int world_size, std::uint64_t t0);
    // start, end: CLOCK_MONOTONIC ns (now_ns()) around the call; one clock reading can serve the
    // several records of one call.
    void add(Kind kind, std::uint16_t comm, std::int32_t peer, std::int32_t tag, std::uint32_t request,
             std::uint64_t bytes, std::uint64_t start, std::uint64_t end, std::uint8_t flags = 0) noexcept;
    void add_raw(const void* data, std::size_t len) noexcept;  // a comm record's member list
    void close() noexcept;  // the trailer, the last write, close(2)

private:
    void flush() noexcept;
    int fd_ = -1;
    std::uint64_t t0_ = 0;
    std::uint64_t records_ = 0;
    std::size_t used_ = 0;
};

RecordBuffer& records();

}  // namespace jobtrace
