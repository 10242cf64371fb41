// See record_buffer.h.
#include "tools/tracer/preload/record_buffer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "tools/tracer/preload/guard.h"

namespace jobtrace {

namespace {
constexpr std::size_t kBufferBytes = 4u << 20;
alignas(64) char g_buffer[kBufferBytes];
}  // namespace

RecordBuffer& records() {
    static RecordBuffer buffer;
    return buffer;
}

std::string RecordBuffer::open(const std::string& dir, int rank, int world_size, std::uint64_t t0) {
    std::string path = dir + "/rank-" + std::to_string(rank) + ".jstrace";
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) return "cannot create " + path + ": " + std::strerror(errno);
    t0_ = t0;
    FileHeader h{};
    std::memcpy(h.magic, kMagic, sizeof h.magic);
    h.version = kVersion;
    h.rank = static_cast<std::uint32_t>(rank);
    h.world_size = static_cast<std::uint32_t>(world_size);
    h.record_size = sizeof(Record);
    add_raw(&h, sizeof h);
    return {};
}

void RecordBuffer::add(Kind kind, std::uint16_t comm, std::int32_t peer, std::int32_t tag, std::uint32_t request,
                       std::uint64_t bytes, std::uint64_t start, std::uint64_t end, std::uint8_t flags) noexcept {
    Record r{static_cast<std::uint8_t>(kind), flags, comm, peer, tag, request, bytes, start - t0_, end - t0_};
    if (used_ + sizeof r > kBufferBytes) flush();
    std::memcpy(g_buffer + used_, &r, sizeof r);
    used_ += sizeof r;
    ++records_;
}

void RecordBuffer::add_raw(const void* data, std::size_t len) noexcept {
    const char* p = static_cast<const char*>(data);
    while (len > 0) {
        if (used_ == kBufferBytes) flush();
        std::size_t n = std::min(len, kBufferBytes - used_);
        std::memcpy(g_buffer + used_, p, n);
        used_ += n, p += n, len -= n;
    }
}

void RecordBuffer::flush() noexcept {
    std::size_t done = 0;
    while (fd_ >= 0 && done < used_) {
        ssize_t n = ::write(fd_, g_buffer + done, used_ - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  // disk full: the file ends early and the reader names where
        done += static_cast<std::size_t>(n);
    }
    used_ = 0;
}

void RecordBuffer::close() noexcept {
    if (fd_ < 0) return;
    const std::uint64_t before = records_;
    const std::uint64_t now = now_ns();
    add(Kind::end, 0, -1, 0, 0, before, now, now);
    flush();
    ::close(fd_);
    fd_ = -1;
}

}  // namespace jobtrace
