// This node's link reading for the slow verdict (model/link_rtt.h), read every few sampling rounds
// by the watcher for its own ranks and by each node agent for its node's. Multi-node jobs only: on
// one node the ranks talk through shared memory.
#pragma once

#include <sys/types.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "hang/model/link_rtt.h"

namespace jobsentry {

class LinkReader {
public:
    // Rounds between readings: two small reads per rank cached for kRescanSeconds, one dump of the
    // node's TCP sockets.
    static constexpr int kEvery = 4;

    // The reading over the connections of `pids` (this node's ranks) owned by `uid` (the job's
    // user: a socket of another user's process never counts), or nullopt: none of them sent bytes
    // to another host that were acknowledged since the last call, or the kernel refused the socket
    // diagnostics (then never asked again; take_error() says why, once).
    std::optional<double> read(const std::vector<pid_t>& pids, uid_t uid);
    // Why readings stopped, for the log; "" until then, and after it was taken.
    std::string take_error();

private:
    static constexpr double kRescanSeconds = 30;  // a rank's open sockets are looked at again after this
    struct Inodes {
        double read_at = 0;
        std::set<uint64_t> inodes;
    };
    std::map<pid_t, Inodes> inodes_;
    ConnectionBytes before_;
    bool refused_ = false;
    std::string error_;
};

}  // namespace jobsentry
