#include "hang/watch/link_reader.h"

#include <algorithm>

#include "base/clock.h"
#include "hang/sampler/socket_diag.h"

namespace jobsentry {

std::optional<double> LinkReader::read(const std::vector<pid_t>& pids, uid_t uid) {
    if (refused_ || pids.empty()) return std::nullopt;
    const double now = monotonic_now();
    std::map<pid_t, Inodes> kept;
    std::set<uint64_t> all;
    for (pid_t pid : pids) {
        Inodes entry;
        auto it = inodes_.find(pid);
        if (it != inodes_.end() && now - it->second.read_at < kRescanSeconds) entry = std::move(it->second);
        else entry = {now, socket_inodes(pid)};
        all.insert(entry.inodes.begin(), entry.inodes.end());
        kept[pid] = std::move(entry);
    }
    inodes_ = std::move(kept);  // ranks that left are forgotten
    std::string error;
    auto connections = tcp_connections_of(all, &error);
    if (!connections) {
        refused_ = true;
        error_ = "link readings stop: " + error;
        return std::nullopt;
    }
    connections->erase(std::remove_if(connections->begin(), connections->end(),
                                      [uid](const TcpConnection& c) { return c.uid != uid; }),
                       connections->end());
    auto reading = node_link_ms(*connections, before_);
    before_ = connection_bytes(*connections);
    return reading;
}

std::string LinkReader::take_error() {
    std::string out;
    out.swap(error_);
    return out;
}

}  // namespace jobsentry
