// One established TCP connection as the kernel's socket diagnostics report it (socket_diag.h);
// plain data, shared by the reader and the pure link reading (model/link_rtt.h).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace jobsentry {

struct TcpConnection {
    uint64_t inode = 0;   // the socket's inode: which process holds it (/proc/PID/fd)
    uid_t uid = 0;
    std::string local, remote;  // numeric addresses ("10.77.0.2", "fd00::2")
    uint32_t srtt_us = 0;       // the kernel's smoothed round-trip time
    uint64_t bytes_acked = 0, bytes_received = 0;
};

}  // namespace jobsentry
