// Buffered writer of this rank's trace file (DIR/rank-N.jsrma). Records are
// appended to a 1 MiB buffer and written with write(2) when it fills, at
// MPI_Finalize and at exit, so tracing costs a memcpy per event.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "tools/rmacheck/trace_format.h"

namespace rmacheck {

class TraceWriter {
public:
    // Returns an error text, empty on success.
    std::string open(const std::string& dir, int rank, int size, uint32_t mode);
    bool is_open() const { return fd_ >= 0; }
    // thread: the kernel id of the thread that made the event (a buffered load/store may be
    // written by another thread than the one that made it); a thread record precedes it when
    // it differs from the previous record's.
    void add(trace::Rec type, const trace::Encoder& payload, uint32_t thread);
    void add(trace::Rec type, const trace::Encoder& payload);  // made by the calling thread
    void flush();
    void close();
    // From a signal handler: write what is buffered with write(2), no lock, no allocation. A record
    // being appended at that moment may be cut; the reader then names the offset.
    void emergency_flush() noexcept;
    // Append one raw record with write(2) after an emergency flush (signal context).
    void emergency_record(trace::Rec type, const char* payload, uint32_t len, uint32_t thread) noexcept;

private:
    void flush_locked();
    void append_locked(trace::Rec type, const trace::Encoder& payload);
    int fd_ = -1;
    uint32_t last_thread_ = 0;  // the thread of the last record written (0: none yet)
    std::vector<char> buf_;
    std::mutex mutex_;  // MPI_THREAD_MULTIPLE programs call from several threads
};

TraceWriter& writer();

// One module record per executable mapping of /proc/self/maps (offline symbolisation).
void write_modules();

}  // namespace rmacheck
