// Hand-made trace files for the tracer's unit tests: the bytes `jobsentry trace`
// writes (tracer/trace_records.h), built record by record.
#pragma once

#include <cstring>
#include <string>

#include "tools/tracer/trace_records.h"

namespace jobtrace::test {

class TraceBytes {
public:
    TraceBytes(std::uint32_t rank, std::uint32_t world) {
        FileHeader h{};
        std::memcpy(h.magic, kMagic, sizeof h.magic);
        h.version = kVersion;
        h.rank = rank;
        h.world_size = world;
        h.record_size = sizeof(Record);
        append(&h, sizeof h);
    }
    // One record: start and end in ns since MPI_Init.
    TraceBytes& rec(Kind kind, std::int32_t peer, std::uint64_t bytes, std::uint64_t start, std::uint64_t end,
                    std::int32_t tag = 0, std::uint32_t request = 0, std::uint16_t comm = 0) {
        Record r{static_cast<std::uint8_t>(kind), 0, comm, peer, tag, request, bytes, start, end};
        append(&r, sizeof r);
        ++records_;
        return *this;
    }
    TraceBytes& end() {
        Record r{static_cast<std::uint8_t>(Kind::end), 0, 0, -1, 0, 0, records_, 0, 0};
        append(&r, sizeof r);
        return *this;
    }
    TraceBytes& raw(const void* p, std::size_t n) {
        append(p, n);
        return *this;
    }
    const std::string& str() const { return bytes_; }

private:
    void append(const void* p, std::size_t n) { bytes_.append(static_cast<const char*>(p), n); }
    std::string bytes_;
    std::uint64_t records_ = 0;
};

}  // namespace jobtrace::test
