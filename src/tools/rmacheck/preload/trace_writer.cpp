// Buffered per-rank trace file (see trace_writer.h).
#include "tools/rmacheck/preload/trace_writer.h"
#include "tools/rmacheck/preload/protect.h"
#include "tools/rmacheck/preload/thread_id.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace rmacheck {

namespace {
constexpr size_t kBufferSize = 1 << 20;

void write_all(int fd, const char* p, size_t n) {
    while (n > 0) {
        ssize_t k = ::write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            return;  // disk full or similar: the reader reports the file as truncated
        }
        p += k;
        n -= static_cast<size_t>(k);
    }
}
}  // namespace

TraceWriter& writer() {
    static TraceWriter* w = new TraceWriter;  // never destroyed: atexit flushes may run late
    return *w;
}

std::string TraceWriter::open(const std::string& dir, int rank, int size, uint32_t mode) {
    std::string path = dir + "/rank-" + std::to_string(rank) + ".jsrma";
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) return "cannot create " + path + ": " + std::strerror(errno);
    buf_.reserve(kBufferSize);
    buf_.insert(buf_.end(), trace::kMagic, trace::kMagic + 8);
    int32_t fields[5] = {static_cast<int32_t>(trace::kVersion), rank, size, static_cast<int32_t>(getpid()),
                         static_cast<int32_t>(mode)};
    buf_.insert(buf_.end(), reinterpret_cast<char*>(fields), reinterpret_cast<char*>(fields) + sizeof fields);
    return {};
}

void TraceWriter::add(trace::Rec type, const trace::Encoder& payload) { add(type, payload, this_thread()); }

void TraceWriter::add(trace::Rec type, const trace::Encoder& payload, uint32_t thread) {
    if (fd_ < 0) return;
    if (trace::synchronises(type)) protect::next_span();  // the accesses after it are of a new span
    std::lock_guard<std::mutex> lock(mutex_);
    if (thread != last_thread_) {
        trace::Encoder t;
        t.put<uint32_t>(thread);
        append_locked(trace::Rec::thread, t);
        last_thread_ = thread;
    }
    append_locked(type, payload);
}

// Straight into the buffer (no record string first: this runs once per MPI call).
void TraceWriter::append_locked(trace::Rec type, const trace::Encoder& payload) {
    const uint32_t n = static_cast<uint32_t>(payload.size());
    if (buf_.size() + 5 + n > kBufferSize) flush_locked();
    char head[5];
    head[0] = static_cast<char>(type);
    std::memcpy(head + 1, &n, 4);
    if (5 + n > kBufferSize) {
        write_all(fd_, head, 5);
        write_all(fd_, payload.data(), n);
        return;
    }
    buf_.insert(buf_.end(), head, head + 5);
    buf_.insert(buf_.end(), payload.data(), payload.data() + n);
}

void TraceWriter::flush_locked() {
    if (fd_ >= 0 && !buf_.empty()) write_all(fd_, buf_.data(), buf_.size());
    buf_.clear();
}

void TraceWriter::flush() {
    std::lock_guard<std::mutex> lock(mutex_);
    flush_locked();
}

void TraceWriter::close() {
    std::lock_guard<std::mutex> lock(mutex_);
    flush_locked();
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

void TraceWriter::emergency_flush() noexcept {
    if (fd_ < 0) return;
    write_all(fd_, buf_.data(), buf_.size());
    buf_.clear();
}

void TraceWriter::emergency_record(trace::Rec type, const char* payload, uint32_t len, uint32_t thread) noexcept {
    if (fd_ < 0) return;
    if (thread != last_thread_) {  // no lock in a signal handler: the thread record is written by hand
        char t[9] = {static_cast<char>(trace::Rec::thread), 4, 0, 0, 0};
        std::memcpy(t + 5, &thread, 4);
        write_all(fd_, t, sizeof t);
        last_thread_ = thread;
    }
    char head[5];
    head[0] = static_cast<char>(type);
    std::memcpy(head + 1, &len, 4);
    write_all(fd_, head, 5);
    write_all(fd_, payload, len);
}

void write_modules() {
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        unsigned long long start, end, offset;
        char perms[8] = {0};
        int path_at = 0;
        if (std::sscanf(line.c_str(), "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &offset, &path_at) < 4)
            continue;
        if (perms[2] != 'x' || path_at <= 0 || line.size() <= static_cast<size_t>(path_at) || line[path_at] != '/')
            continue;
        trace::Encoder e;
        e.put<uint64_t>(start), e.put<uint64_t>(end), e.put<uint64_t>(offset);
        e.put_str(line.substr(static_cast<size_t>(path_at)));
        writer().add(trace::Rec::module, e);
    }
}

}  // namespace rmacheck
