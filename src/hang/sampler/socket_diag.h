// The job's TCP connections on this node, read-only, as `ss -ti` reads them: the socket inodes
// among a process's open files (/proc/PID/fd) and the kernel's socket diagnostics
// (NETLINK_SOCK_DIAG: every established TCP socket with its tcp_info) for the slow verdict's link
// reading (model/link_rtt.h). Nothing here touches the sockets themselves. Bounded: at most
// kMaxFds files of a process and kMaxConnections sockets of each address family are looked at;
// every receive waits 1 s at most.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "hang/sampler/tcp_connection.h"

namespace jobsentry {

constexpr size_t kMaxFds = 4096;
constexpr size_t kMaxConnections = 65536;

// The inodes of the sockets among a process's open files ("socket:[INODE]" links of /proc/PID/fd);
// empty when it cannot be read.
std::set<uint64_t> socket_inodes(pid_t pid);

// The established TCP connections (IPv4 and IPv6) of the sockets in `inodes`, from one dump of the
// node's (this network namespace's) sockets; nullopt, with *error, when the kernel refuses.
std::optional<std::vector<TcpConnection>> tcp_connections_of(const std::set<uint64_t>& inodes, std::string* error);

}  // namespace jobsentry
