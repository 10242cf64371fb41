// A node agent's part as a relay in the tree of agents (node_tree.h): the agents of its children
// connect to it, authenticated as to a leader (an AgentHub of its own), and it answers its parent for
// its whole subtree, so that no process takes more than the fan-in's connections and replies.
// It decides nothing: ranks below that it cannot reach go up as "unreachable", nodes below that it
// cannot see as "unseen", and the leader never confirms a hang while either holds.
// Single-threaded, like the agent that calls it between its parent's requests.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/port_range.h"
#include "hang/multinode/agent_hub.h"
#include "hang/multinode/node_tree.h"

namespace jobsentry {

class Relay {
public:
    // names: the job's nodes in order (names[own] is this node's).
    Relay(uint32_t job_id, uid_t trusted_uid, const NodeTree& tree, size_t own, const std::vector<std::string>& names);

    // Binds the first free port of the job's sequence, as the leader does: children try them in turn.
    std::string listen(const PortRange& ports) { return hub_.listen(ports); }
    int port() const { return hub_.port(); }
    // Takes children's connections (never waits for a hello); call it between requests.
    void accept() { hub_.accept_agents(); }
    // The nodes this relay speaks for besides its own.
    const std::set<std::string>& below() const { return below_; }

    // The body of a ranks reply: own ranks and every rank below (each with its node), and the nodes
    // below that cannot be seen, with why: {"ranks": [...], "unseen": {node: why}}.
    nlohmann::json ranks(const std::vector<RankProcess>& own);
    // Samples of ranks below (their node set), in two halves: start() sends the requests to the children
    // at once, so that their time to answer (reply_seconds_for_height) runs while this agent samples its
    // own ranks; finish() appends their samples to `samples` (wire::put_samples makes the reply), ranks
    // whose agent does not answer as "unreachable", and with `links` the nodes below's link readings,
    // by node.
    void start(const std::vector<RankProcess>& ranks, bool full, bool links);
    void finish(std::vector<std::pair<int, StackSample>>& samples, nlohmann::json* links);
    std::vector<std::string> take_events() { return hub_.take_events(); }

private:
    std::string own_;  // this node's name
    std::set<std::string> below_;
    AgentHub hub_;
    AgentHub::PendingSamples pending_;
};

}  // namespace jobsentry
