#include "hang/model/link_rtt.h"

#include <algorithm>
#include <set>

namespace jobsentry {

namespace {

bool loopback(const std::string& address) {
    return address.rfind("127.", 0) == 0 || address == "::1" || address.rfind("::ffff:127.", 0) == 0;
}

}  // namespace

ConnectionBytes connection_bytes(const std::vector<TcpConnection>& connections) {
    ConnectionBytes out;
    for (const auto& c : connections) out[c.inode] = c.bytes_acked;
    return out;
}

std::optional<double> node_link_ms(const std::vector<TcpConnection>& connections, const ConnectionBytes& before) {
    std::set<std::string> own;  // this node's addresses: a connection between two of them stays on the node
    for (const auto& c : connections) own.insert(c.local);
    std::optional<double> smallest;
    for (const auto& c : connections) {
        if (c.srtt_us == 0 || loopback(c.remote) || own.count(c.remote)) continue;
        auto last = before.find(c.inode);
        if (last == before.end() || c.bytes_acked <= last->second) continue;
        const double ms = c.srtt_us / 1000.0;
        if (!smallest || ms < *smallest) smallest = ms;
    }
    return smallest;
}

}  // namespace jobsentry
