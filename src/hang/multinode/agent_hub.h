// The leader's side of a multi-node job (docs/multi-node.md): listens for the
// node agents of its job, authenticates each (handshake.h), asks them for
// their ranks and for samples, and keeps track of agents that are lost. An
// agent that closes, times out or sends garbage is dropped and reported; its
// ranks stay in the job's rank set as "unreachable", and verification never
// confirms a hang while a rank is unreachable. An agent that says goodbye
// (the job ended on its node) takes its ranks with it.
// Single-threaded, like the watcher that calls it.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hang/multinode/connection.h"
#include "hang/watch/discovery.h"
#include "hang/sampler/frame.h"
#include "base/port_range.h"

namespace jobsentry {

// Up to `most` of `candidates` (sorted), beginning after `last` and wrapping around: how nodes
// take turns at requests the leader bounds per round.
std::vector<std::string> next_in_turn(const std::vector<std::string>& candidates, const std::string& last,
                                      size_t most);

class AgentHub {
public:
    // agent_nodes: the nodes whose agents connect here (a star's leader: all of the job's but its own;
    // in a tree, node_tree.h, this node's children). below: for a child that relays, the nodes it
    // speaks for besides its own (its subtree); its ranks, samples, link readings and unseen nodes
    // come in its replies, and each must be of one of those nodes.
    AgentHub(uint32_t job_id, uid_t trusted_uid, std::vector<std::string> agent_nodes, double reply_seconds = 2.0,
             std::map<std::string, std::vector<std::string>> below = {});
    ~AgentHub();

    // Binds the first free port of the job's sequence (leader_port_sequence()).
    std::string listen(const PortRange& ports);
    int port() const { return port_; }

    // Takes new connections and authenticates those whose hello has come;
    // never waits for a hello (a silent connection must not stall sampling):
    // one that has not sent it within kHelloSeconds is dropped. Refused ones
    // are logged.
    void accept_agents();
    // The ranks of every connected agent (node set on each). Agents are asked
    // again when something changed (an agent came or went, a rank was gone),
    // else at intervals doubling from 2 s to 30 s while nothing changes: at
    // 10,000 nodes, discovery must not cost more than sampling.
    std::vector<RankProcess> refresh_ranks();
    // Samples of remote ranks, by rank; ranks whose agent is missing or does
    // not answer in time are "unreachable". With link_ms, the round also reads
    // nodes' links (wire.h, "link"; the readings land there, by node): every
    // node whose ranks are sampled, and up to kMaxLinkOnlyNodes others, taking
    // turns, in a request of their own.
    std::map<int, StackSample> sample(const std::vector<RankProcess>& ranks, bool full,
                                      std::map<std::string, double>* link_ms = nullptr);
    // The same in two halves, for a relay (relay.h): the requests go out at once, so that its children's
    // time to answer runs while it samples its own node's ranks, and the replies are collected after.
    struct Asked {
        std::map<std::string, uint64_t> ids;  // node -> id of the request it was sent
        double deadline = 0;                  // for every reply
    };
    struct PendingSamples {
        std::vector<RankProcess> ranks;
        std::map<std::string, std::set<int>> asked_of;  // child -> the ranks asked of it
        Asked asked;
    };
    PendingSamples start_sample(const std::vector<RankProcess>& ranks, bool full, bool links);
    std::map<int, StackSample> finish_sample(const PendingSamples& pending, std::map<std::string, double>* link_ms);
    // A link round's requests to nodes whose ranks are not sampled in it are bounded: 256 cost the
    // leader 7-8 ms of CPU per link round (bench/leader_scale.sh), every 4th round, whatever the
    // job's size; a request to each of 10,000 nodes would cost about 40 times that.
    static constexpr size_t kMaxLinkOnlyNodes = 256;
    // What happened to agents since the last call, one line each.
    std::vector<std::string> take_events();
    // The job's other nodes that cannot be seen: their agent never connected
    // or was lost (not those whose agent said goodbye), and the nodes below a
    // relay that was lost or ended, each with a phrase for people:
    // "node agent lost on n2 (closed by the peer)".
    std::map<std::string, std::string> unseen_nodes() const;
    nlohmann::json nodes_json() const;
    uint64_t bytes_sent() const;
    uint64_t bytes_received() const;
    uint64_t requests() const { return requests_; }
    uint64_t refused() const { return refused_; }  // connections that were not the job's agents

private:
    struct Agent {
        Connection conn;
        std::vector<RankProcess> ranks;
        bool lost = false;
        std::string why;
        uint64_t sent_before = 0, received_before = 0;  // of earlier connections of this node
        bool listed = false;                          // a rank list came on this connection
        std::map<std::string, std::string> unseen;    // a relay's: nodes below it it cannot see, and why
    };
    // The child through which `node` is reached (itself, or the relay above it); "" if none.
    const std::string& route(const std::string& node) const;
    std::map<std::string, std::set<std::string>> below_;  // child -> the nodes it relays for
    std::map<std::string, std::string> route_;            // node -> the child it is reached through
    // Adds the link-only requests of a link round (kMaxLinkOnlyNodes, from the node after the last one asked).
    void ask_links_of_idle_nodes(std::map<std::string, nlohmann::json>& requests, bool full);
    std::string last_link_only_;  // the node last asked for its link alone
    struct Unauthenticated {
        Connection conn;
        double deadline = 0;  // for its hello
    };
    void lose(const std::string& node, Agent& agent, const std::string& why);
    // Authenticates c if its hello is there; false while it is still awaited.
    bool try_hello(Unauthenticated& c);
    void refuse(const std::string& why);
    // Sends the request to each node in turn (post), then collects the replies (collect),
    // handing each to take as it comes: one parsed reply at a time is held
    // (a full round of 256 nodes is ~48 MB of JSON, several times that parsed).
    using Take = std::function<void(const std::string& node, nlohmann::json& reply)>;
    Asked post(const std::map<std::string, nlohmann::json>& requests);
    void collect(const Asked& asked, const Take& take);
    void ask(const std::map<std::string, nlohmann::json>& requests, const Take& take) { collect(post(requests), take); }
    // An agent's goodbye: its own node's ranks go with it; a relay's nodes below stay, unseen (unseen_nodes).
    void ended(const std::string& node, Agent& agent, const nlohmann::json& bye);

    uint32_t job_id_;
    uid_t trusted_uid_;
    std::vector<std::string> agent_nodes_;
    double reply_seconds_;
    int listen_fd_ = -1;
    int port_ = 0;
    uint64_t next_id_ = 1;
    double next_refresh_ = 0;      // monotonic time of the next rank-list request
    double refresh_interval_ = 2;  // seconds; see refresh_ranks()
    bool changed_ = true;          // ask at the next refresh_ranks()
    uint64_t requests_ = 0;
    std::map<std::string, Agent> agents_;
    std::vector<Unauthenticated> unauthenticated_;
    uint64_t refused_ = 0;
    std::vector<std::string> events_;
};

}  // namespace jobsentry
