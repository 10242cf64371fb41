#include "hang/multinode/agent_hub.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include "hang/multinode/handshake.h"
#include "base/clock.h"

namespace jobsentry {
namespace {

constexpr double kHelloSeconds = 5.0;       // an agent sends its hello as soon as it is connected
constexpr double kWelcomeSendSeconds = 1.0;  // a few hundred bytes into an empty socket buffer
constexpr int kMaxAcceptsPerTurn = 64;
constexpr size_t kMaxUnauthenticated = 256;  // beyond, the oldest is dropped
constexpr uint64_t kRefusalsLogged = 100;    // then one line per 100, so no one can fill the log
constexpr double kMinRefreshSeconds = 2;
constexpr double kMaxRefreshSeconds = 30;

}  // namespace

AgentHub::AgentHub(uint32_t job_id, uid_t trusted_uid, std::vector<std::string> agent_nodes, double reply_seconds,
                   std::map<std::string, std::vector<std::string>> below)
    : job_id_(job_id), trusted_uid_(trusted_uid), agent_nodes_(std::move(agent_nodes)), reply_seconds_(reply_seconds) {
    for (const auto& child : agent_nodes_) {
        route_[child] = child;
        auto& relayed = below_[child];
        if (auto it = below.find(child); it != below.end())
            for (const auto& node : it->second) {
                relayed.insert(node);
                route_[node] = child;
            }
    }
}

const std::string& AgentHub::route(const std::string& node) const {
    static const std::string none;
    auto it = route_.find(node);
    return it == route_.end() ? none : it->second;
}

AgentHub::~AgentHub() {
    if (listen_fd_ >= 0) close(listen_fd_);
}

std::string AgentHub::listen(const PortRange& ports) {
    std::string error;
    for (int port : leader_port_sequence(ports, job_id_)) {
        listen_fd_ = listen_on(port, &error);
        if (listen_fd_ >= 0) {
            port_ = port;
            return {};
        }
    }
    return "no free port in " + to_string(ports) + " (last: " + error + ")";
}

void AgentHub::refuse(const std::string& why) {
    ++refused_;
    if (refused_ <= kRefusalsLogged || refused_ % 100 == 0)
        events_.push_back("refused a node agent connection: " + why + " (" + std::to_string(refused_) + " refused so far)");
}

void AgentHub::accept_agents() {
    for (int i = 0; listen_fd_ >= 0 && i < kMaxAcceptsPerTurn; ++i) {
        int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) break;  // EAGAIN: nobody waiting
        if (unauthenticated_.size() >= kMaxUnauthenticated) {
            unauthenticated_.erase(unauthenticated_.begin());
            refuse("too many connections waiting for their hello; the oldest is dropped");
        }
        Connection conn(fd);
        conn.limit_messages(wire::kMaxHelloBytes);
        unauthenticated_.push_back({std::move(conn), monotonic_now() + kHelloSeconds});
    }
    unauthenticated_.erase(std::remove_if(unauthenticated_.begin(), unauthenticated_.end(),
                                          [this](Unauthenticated& c) { return try_hello(c); }),
                           unauthenticated_.end());
}

bool AgentHub::try_hello(Unauthenticated& c) {
    std::string error;
    auto hello = c.conn.receive(monotonic_now(), &error);  // only what has arrived
    if (!hello) {
        if (error == "timed out" && monotonic_now() < c.deadline) return false;
        refuse(error == "timed out" ? "no hello within " + std::to_string(int(kHelloSeconds)) + " s" : error);
        return true;
    }
    std::string node;
    error = leader_answer_hello(c.conn, *hello, job_id_, trusted_uid_, monotonic_now() + kWelcomeSendSeconds, &node);
    if (error.empty() && std::find(agent_nodes_.begin(), agent_nodes_.end(), node) == agent_nodes_.end())
        error = "an agent for node " + node.substr(0, 64) + ", which is not one of the nodes that connect here";
    if (!error.empty()) {
        refuse(error);
        return true;
    }
    Agent& a = agents_[node];
    if (a.conn.is_open()) events_.push_back("node agent on " + node + " connected again; the older connection is closed");
    else if (a.lost) events_.push_back("node agent on " + node + " is back");
    else events_.push_back("node agent on " + node + " connected");
    a.sent_before += a.conn.bytes_sent();
    a.received_before += a.conn.bytes_received();
    a.conn = std::move(c.conn);
    a.conn.limit_messages(wire::max_message_bytes_for(1 + below_[node].size()));  // a relay speaks for its subtree
    changed_ = true;
    a.lost = false;
    a.why.clear();
    a.listed = false;
    a.unseen.clear();
    return true;
}

void AgentHub::lose(const std::string& node, Agent& agent, const std::string& why) {
    agent.sent_before += agent.conn.bytes_sent();
    agent.received_before += agent.conn.bytes_received();
    agent.conn.close();
    agent.lost = true;
    changed_ = true;
    agent.why = why;
    // Its ranks stay known, as unreachable: they may be the ones making
    // progress, so no hang can be verified while they cannot be seen.
    events_.push_back("node agent on " + node + " lost (" + why + "); its " + std::to_string(agent.ranks.size()) +
                      " ranks cannot be sampled, and no hang is claimed while they cannot");
}

AgentHub::Asked AgentHub::post(const std::map<std::string, nlohmann::json>& requests) {
    Asked asked;
    asked.deadline = monotonic_now() + reply_seconds_;
    for (const auto& [node, request] : requests) {
        auto it = agents_.find(node);
        if (it == agents_.end() || !it->second.conn.is_open()) continue;
        nlohmann::json message = request;
        message["id"] = next_id_;
        std::string error = it->second.conn.send(message, asked.deadline);
        if (!error.empty()) {
            lose(node, it->second, error);
            continue;
        }
        asked.ids[node] = next_id_++;
        ++requests_;
    }
    return asked;
}

void AgentHub::collect(const Asked& asked, const Take& take) {
    for (const auto& [node, id] : asked.ids) {
        Agent& a = agents_[node];
        if (!a.conn.is_open()) continue;  // lost or ended since the request went out
        for (;;) {
            std::string error;
            auto reply = a.conn.receive(asked.deadline, &error);
            if (!reply) {
                lose(node, a, error == "timed out" ? "no answer within " + std::to_string(int(reply_seconds_)) + " s"
                                                   : error);
                break;
            }
            if ((*reply)["type"] == "bye") {  // the job ended on that node: not a loss
                ended(node, a, *reply);
                break;
            }
            // A late answer to an earlier request that timed out is skipped.
            if (reply->contains("id") && (*reply)["id"].is_number_integer() && (*reply)["id"].get<uint64_t>() == id) {
                take(node, *reply);
                break;
            }
        }
    }
}

void AgentHub::ended(const std::string& node, Agent& a, const nlohmann::json& bye) {
    a.sent_before += a.conn.bytes_sent();
    a.received_before += a.conn.bytes_received();
    a.conn.close();
    const auto why = bye.find("why");
    a.why = why != bye.end() && why->is_string() ? why->get<std::string>().substr(0, wire::kMaxTextBytes)
                                                 : "said goodbye";
    // Its own ranks ended with the job on its node. A relay's nodes below need not have: their agents
    // answered through it and now cannot, so their ranks stay, unreachable, and the nodes unseen
    // (a goodbye that took them along let the ranks still seen confirm a hang).
    a.ranks.erase(std::remove_if(a.ranks.begin(), a.ranks.end(), [&](const RankProcess& r) { return r.node == node; }),
                  a.ranks.end());
    changed_ = true;
    std::string line = "node agent on " + node + " ended: " + a.why;
    if (const auto below = below_.find(node); below != below_.end() && !below->second.empty())
        line += "; the " + std::to_string(below->second.size()) + " nodes it relayed for cannot be seen (" +
                std::to_string(a.ranks.size()) + " ranks), and no hang is claimed while they cannot";
    events_.push_back(line);
}

std::vector<RankProcess> AgentHub::refresh_ranks() {
    std::map<std::string, nlohmann::json> requests;
    if (changed_ || monotonic_now() >= next_refresh_) {
        for (const auto& [node, a] : agents_)
            if (a.conn.is_open()) requests[node] = {{"type", "ranks"}};
        refresh_interval_ = changed_ ? kMinRefreshSeconds : std::min(2 * refresh_interval_, kMaxRefreshSeconds);
        changed_ = false;
        next_refresh_ = monotonic_now() + refresh_interval_;
    }
    ask(requests, [this](const std::string& node, nlohmann::json& reply) {
        const auto unchanged = reply.find("unchanged");
        if (reply["type"] == "ranks" && unchanged != reply.end() && *unchanged == true) return;  // as last time
        std::string error;
        const auto& below = below_[node];
        auto ranks = reply["type"] == "ranks" && reply.contains("ranks")
                         ? wire::ranks_from_json(reply["ranks"], node, &error, below)
                         : std::nullopt;
        std::map<std::string, std::string> unseen;  // a relay's nodes that it cannot see
        if (ranks && reply.contains("unseen"))
            error = wire::node_map_from_json(reply["unseen"], below, [&](const std::string& n, const nlohmann::json& why) {
                if (!why.is_string()) return std::string("an unseen node's reason that is not text");
                unseen[n] = why.get<std::string>().substr(0, wire::kMaxTextBytes);
                return std::string();
            });
        if (!ranks || !error.empty()) {
            lose(node, agents_[node], "bad rank list: " + (error.empty() ? "not a ranks reply" : error));
            return;
        }
        agents_[node].ranks = std::move(*ranks);
        agents_[node].unseen = std::move(unseen);
        agents_[node].listed = true;
        changed_ = true;  // a list that changed: look again soon
        next_refresh_ = monotonic_now() + kMinRefreshSeconds;
        refresh_interval_ = kMinRefreshSeconds;
    });
    std::vector<RankProcess> all;
    for (const auto& [node, a] : agents_)
        for (const auto& r : a.ranks) all.push_back(r);
    return all;
}

namespace {
// A sample request with no ranks yet; `link` asks for the node's link reading too (wire.h).
nlohmann::json sample_request(bool full, bool link) {
    nlohmann::json request{{"type", "sample"}, {"full", full}, {"ranks", nlohmann::json::array()}};
    if (!full) request["packed"] = true;  // wire::put_samples
    if (link) request["link"] = true;
    request["stop_times"] = true;  // the slow verdict's on-CPU compute rates (wire.h)
    return request;
}
}  // namespace

std::vector<std::string> next_in_turn(const std::vector<std::string>& candidates, const std::string& last,
                                      size_t most) {
    const size_t n = std::min(most, candidates.size());
    const size_t first = static_cast<size_t>(std::upper_bound(candidates.begin(), candidates.end(), last) - candidates.begin());
    std::vector<std::string> out;
    for (size_t i = 0; i < n; ++i) out.push_back(candidates[(first + i) % candidates.size()]);
    return out;
}

std::map<int, StackSample> AgentHub::sample(const std::vector<RankProcess>& ranks, bool full,
                                            std::map<std::string, double>* link_ms) {
    return finish_sample(start_sample(ranks, full, link_ms != nullptr), link_ms);
}

AgentHub::PendingSamples AgentHub::start_sample(const std::vector<RankProcess>& ranks, bool full, bool links) {
    PendingSamples pending;
    pending.ranks = ranks;
    std::map<std::string, nlohmann::json> requests;
    // The ranks asked of each node, looked up once per answered sample: a scan
    // of the whole list per sample made a compact round over 16,384 ranks cost
    // 1.2 s of the leader's CPU instead of 0.3 s (bench/leader_scale.sh).
    std::map<std::string, std::set<int>>& asked_of = pending.asked_of;
    for (const auto& r : ranks) {
        const std::string& child = route(r.node);  // the node itself, or the relay above it
        if (!asked_of[child].insert(r.rank).second) continue;  // each rank once: a reply names each once
        auto& request = requests[child];
        if (request.is_null()) {
            request = sample_request(full, links);
        }
        request["ranks"].push_back({{"rank", r.rank}, {"pid", r.pid}, {"start", r.start_time}});
        if (r.node != child) request["ranks"].back()["node"] = r.node;
    }
    if (links) ask_links_of_idle_nodes(requests, full);
    pending.asked = post(requests);
    return pending;
}

std::map<int, StackSample> AgentHub::finish_sample(const PendingSamples& pending,
                                                   std::map<std::string, double>* link_ms) {
    std::map<int, StackSample> out;
    collect(pending.asked, [&](const std::string& node, nlohmann::json& reply) {
        std::string error;
        if (reply.value("type", nlohmann::json()) == "error") {  // it could not take the request: why, bounded
            const auto why = reply.find("error");
            lose(node, agents_[node], "it refused the request: " +
                                          (why != reply.end() && why->is_string()
                                               ? why->get<std::string>().substr(0, wire::kMaxTextBytes)
                                               : std::string("no reason given")));
            return;
        }
        const auto asked = pending.asked_of.find(node);
        auto samples = wire::samples_from_json(reply, asked != pending.asked_of.end() ? asked->second : std::set<int>{},
                                               &error);
        if (!samples) {  // nothing of it is taken: its ranks are unreachable from now on
            lose(node, agents_[node], error);
            return;
        }
        if (const auto link = reply.find("link_ms"); link != reply.end()) {
            auto ms = wire::link_ms_from_json(*link, &error);
            if (!ms) {
                lose(node, agents_[node], error);
                return;
            }
            if (link_ms) (*link_ms)[node] = *ms;
        }
        if (const auto links = reply.find("links"); links != reply.end()) {  // a relay's, of the nodes below it
            error = wire::node_map_from_json(*links, below_[node], [&](const std::string& n, const nlohmann::json& value) {
                std::string why;
                auto ms = wire::link_ms_from_json(value, &why);
                if (ms && link_ms) (*link_ms)[n] = *ms;
                return why;
            });
            if (!error.empty()) {
                lose(node, agents_[node], error);
                return;
            }
        }
        // The wire carries no time of a sample (the agent's monotonic clock is not the leader's), so
        // its answer's arrival stands for it: within the round trip of when the agent took it, while
        // the model's runs and the verification's window span seconds. Without it a remote rank's
        // still run lasted 0 s whatever its length, and its CPU share was never judged.
        const double received = monotonic_now();
        for (auto& [rank, s] : *samples) {
            // A step ended there, or (from a relay) a node below it is lost: ask for the rank lists soon,
            // which carry the relay's unseen nodes.
            if (s.status == SampleStatus::gone || s.status == SampleStatus::unreachable) changed_ = true;
            s.taken_at = received;
            out[rank] = std::move(s);
        }
    });
    for (const auto& r : pending.ranks) {
        if (out.count(r.rank)) continue;
        StackSample missing;
        missing.pid = r.pid;
        missing.status = SampleStatus::unreachable;
        const std::string& child = route(r.node);
        auto it = agents_.find(child);
        const std::string what = it == agents_.end() ? " never connected"
                                 : it->second.lost ? " lost: " + it->second.why
                                                   : " ended: " + it->second.why;
        missing.error = child == r.node ? "node agent on " + r.node + what
                                        : "node agent on " + r.node + " unreachable: its relay on " + child + what;
        out[r.rank] = std::move(missing);
    }
    return out;
}

void AgentHub::ask_links_of_idle_nodes(std::map<std::string, nlohmann::json>& requests, bool full) {
    std::vector<std::string> idle;
    for (const auto& [node, a] : agents_)
        if (a.conn.is_open() && !requests.count(node)) idle.push_back(node);
    const std::vector<std::string> asked = next_in_turn(idle, last_link_only_, kMaxLinkOnlyNodes);
    for (const auto& node : asked)
        requests[node] = sample_request(full, true);
    if (!asked.empty()) last_link_only_ = asked.back();
}

std::vector<std::string> AgentHub::take_events() {
    std::vector<std::string> out;
    out.swap(events_);
    return out;
}

std::map<std::string, std::string> AgentHub::unseen_nodes() const {
    std::map<std::string, std::string> out;
    for (const auto& node : agent_nodes_) {
        auto it = agents_.find(node);
        std::string relay_why;  // why the nodes below it cannot be seen, if they cannot
        if (it == agents_.end()) {
            out[node] = "node agent never connected on " + node;
            relay_why = "never connected";
        } else if (it->second.lost) {
            out[node] = "node agent lost on " + node + " (" + it->second.why + ")";
            relay_why = "lost";
        } else if (!it->second.conn.is_open()) {  // it said goodbye: its own node is done, those below unseen
            relay_why = "ended (" + it->second.why + ")";
        } else if (!it->second.listed) {
            relay_why = "connected, but has not yet said what it sees";
        }
        for (const auto& below : below_.at(node)) {
            if (!relay_why.empty()) out[below] = "node agent on " + below + " unreachable: its relay on " + node + " " + relay_why;
            else if (auto u = it->second.unseen.find(below); u != it->second.unseen.end()) out[below] = u->second;
        }
    }
    return out;
}

nlohmann::json AgentHub::nodes_json() const {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& [node, a] : agents_) {
        nlohmann::json j{{"node", node},
                         {"agent", a.lost ? "lost" : a.conn.is_open() ? "connected" : "ended"},
                         {"ranks", a.ranks.size()},
                         {"bytes_sent", a.sent_before + a.conn.bytes_sent()},
                         {"bytes_received", a.received_before + a.conn.bytes_received()}};
        if (a.lost) j["lost_because"] = a.why;
        else if (!a.why.empty()) j["ended_because"] = a.why;
        out.push_back(std::move(j));
    }
    for (const auto& node : agent_nodes_)
        if (!agents_.count(node)) out.push_back({{"node", node}, {"agent", "never connected"}, {"ranks", 0}});
    // The nodes relays speak for: seen through them, or unseen and why.
    const auto unseen = unseen_nodes();
    for (const auto& [relay, nodes] : below_)
        for (const auto& node : nodes) {
            size_t ranks = 0;
            if (auto it = agents_.find(relay); it != agents_.end())
                ranks = static_cast<size_t>(std::count_if(it->second.ranks.begin(), it->second.ranks.end(),
                                                          [&](const RankProcess& r) { return r.node == node; }));
            nlohmann::json j{{"node", node}, {"via", relay}, {"ranks", ranks}};
            if (auto u = unseen.find(node); u != unseen.end()) {
                j["agent"] = "unseen";
                j["unseen_because"] = u->second;
            } else {
                j["agent"] = "connected";
            }
            out.push_back(std::move(j));
        }
    return out;
}

uint64_t AgentHub::bytes_sent() const {
    uint64_t n = 0;
    for (const auto& [node, a] : agents_) n += a.sent_before + a.conn.bytes_sent();
    return n;
}

uint64_t AgentHub::bytes_received() const {
    uint64_t n = 0;
    for (const auto& [node, a] : agents_) n += a.received_before + a.conn.bytes_received();
    return n;
}

}  // namespace jobsentry
