// A node's link reading for the slow verdict (slow_rank.h, "slow_link"), pure: from the job's TCP
// connections on the node as the kernel's socket diagnostics give them (sampler/socket_diag.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "hang/sampler/tcp_connection.h"

namespace jobsentry {

// Bytes a connection has sent and had acknowledged, by inode: what the next reading compares with.
using ConnectionBytes = std::map<uint64_t, uint64_t>;
ConnectionBytes connection_bytes(const std::vector<TcpConnection>& connections);

// The node's reading, in ms: the smallest smoothed round trip among `connections` (the job's, on
// this node) that go to another host (not loopback, not one of this node's own addresses) and had
// bytes they sent acknowledged since `before` (the kernel measures a round trip only then: a
// connection that only received keeps an old one; a connection absent from `before` is new, its
// round trip of its handshake and first bytes, and counts once it has sent more). The smallest: a node whose link is slow has no
// fast connection left, while its peers keep their connections to each other; an idle connection
// keeps the round trip of its last exchange, however old. nullopt when no connection qualifies.
std::optional<double> node_link_ms(const std::vector<TcpConnection>& connections, const ConnectionBytes& before);

}  // namespace jobsentry
