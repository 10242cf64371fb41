#include "slurm/node_agent.h"

#include "base/log.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include <boost/program_options.hpp>

#include "hang/multinode/connection.h"
#include "hang/multinode/handshake.h"
#include "hang/multinode/relay.h"
#include "hang/multinode/wire.h"
#include "base/clock.h"
#include "hang/watch/detection_options.h"
#include "hang/watch/discovery.h"
#include "hang/watch/link_reader.h"
#include "slurm/job_cgroup.h"
#include "base/proc_files.h"
#include "slurm/slurm_client.h"
#include "hang/sampler/stack_walker.h"

namespace po = boost::program_options;

namespace jobsentry {
namespace {

constexpr double kMaxRetrySeconds = 10;
// The leader answers a hello at its next look for ranks (every 2 s, later
// while it verifies a suspected hang), never at once.
constexpr double kWelcomeSeconds = 10;

po::options_description describe(AgentOptions& o, std::string& ports) {
    po::options_description d("Options");
    // clang-format off
    d.add_options()
        ("help,h", "print this help and exit")
        ("job-id", po::value(&o.job_id)->required(), "the Slurm job")
        ("node-index", po::value(&o.node_index)->required(),
            "this node's place in the job's node list, 1 or more (0 is the leader's node)")
        ("leader-ports", po::value(&ports)->default_value(to_string(o.leader_ports)),
            "TCP ports FIRST-LAST on which the leader (and a relaying agent) listens")
        ("fan-in", po::value(&o.fan_in)->default_value(o.fan_in),
            "the tree of agents: node K connects to node (K-1)/F and relays for nodes K*F+1..K*F+F; "
            "the leader's must be the same")
        ("pid-file", po::value(&o.pid_file), "the plugin's record of this agent, removed at exit")
        ("cgroup-root", po::value(&o.cgroup_root)->default_value(o.cgroup_root), "where cgroups are mounted");
    // clang-format on
    return d;
}

class NodeAgent {
public:
    explicit NodeAgent(const AgentOptions& o) : opt_(o), log_("agent", o.job_id, Logger::Stamp::utc) {}
    int run();

private:
    bool start();
    bool signalled(double wait_seconds);
    bool over();
    void connect_to_leader();
    void serve(const nlohmann::json& request);
    std::vector<RankProcess> discover();
    // links: a relay's, for the link readings of the nodes below (by node), when the request asks for links.
    // The samples of `wanted` (wire::ranks_from_json of the request): a relay's requests to the nodes
    // below go out first, so that they answer while this node's ranks are sampled.
    std::vector<std::pair<int, StackSample>> sample(const std::vector<RankProcess>& wanted, bool full,
                                                    nlohmann::json* links);
    void send_reply(const nlohmann::json& reply);  // to the parent; a failure closes the connection

    AgentOptions opt_;
    Logger log_;
    SlurmJobInfo info_;
    std::string node_;
    std::string parent_;              // the node connected to: the leader's, or a relay's
    std::string leader_address_;      // the parent's address
    std::unique_ptr<Relay> relay_;    // when nodes of the job connect to this one (node_tree.h)
    std::string cgroup_;
    StackWalker walker_;
    Connection leader_;
    std::vector<RankProcess> ranks_;  // last discovery
    nlohmann::json last_sent_ranks_;  // the list the leader has
    LinkReader links_;                // this node's link reading, sent when the leader asks
    double retry_seconds_ = 0.5;
    std::string last_connect_error_;
    bool ended_ = false;
};

bool NodeAgent::start() {
    std::string left = leave_job_cgroups(opt_.cgroup_root);
    if (!left.empty()) log_.info(left);
    slurm_client_init();
    std::string err;
    for (int attempt = 0; attempt < 5 && info_.job_id == 0; ++attempt) {
        if (auto info = slurm_job_info(opt_.job_id, &err)) info_ = *info;
        else sleep(1);
    }
    if (info_.job_id == 0) {
        log_.info("cannot serve job " + std::to_string(opt_.job_id) + ": " + err);
        return false;
    }
    if (info_.uid == 0) {
        log_.info("job belongs to root; jobsentry watches users' jobs only");
        return false;
    }
    if (opt_.node_index == 0 || opt_.node_index >= info_.nodes.size()) {
        log_.info("--node-index " + std::to_string(opt_.node_index) + " is not a node of the job's " +
            std::to_string(info_.nodes.size()) + " but its first");
        return false;
    }
    node_ = info_.nodes[opt_.node_index];
    log_.set_detail("node " + node_);
    const NodeTree tree(info_.nodes.size(), opt_.fan_in);
    parent_ = info_.nodes[tree.parent(opt_.node_index)];
    leader_address_ = slurm_node_address(parent_, &err);
    if (leader_address_.empty()) {
        log_.info("cannot find the address of " + parent_ + ", the node to connect to: " + err);
        return false;
    }
    if (!tree.children(opt_.node_index).empty())
        relay_ = std::make_unique<Relay>(opt_.job_id, geteuid(), tree, opt_.node_index, info_.nodes);
    const double until = monotonic_now() + kJobCgroupWaitSeconds;
    while (!(cgroup_ = find_job_cgroup(opt_.cgroup_root, info_.uid, opt_.job_id, node_).value_or("")).size()) {
        if (monotonic_now() > until || signalled(0.2)) {
            log_.info("no cgroup of the job for node " + node_ + " under " + opt_.cgroup_root);
            return false;
        }
    }
    log_.info("serving the leader on " + info_.nodes[0] + (parent_ == info_.nodes[0] ? "" : " through " + parent_) + " (" +
        leader_address_ + ", ports " + to_string(opt_.leader_ports) + ") with the ranks of " + info_.user + " in " +
        cgroup_ + (relay_ ? ", relaying for the " + std::to_string(relay_->below().size()) + " nodes below" : ""));
    return true;
}

// Waits up to wait_seconds for SIGTERM/SIGINT/SIGHUP; true when one came.
bool NodeAgent::signalled(double wait_seconds) {
    sigset_t set;
    sigemptyset(&set);
    for (int s : {SIGTERM, SIGINT, SIGHUP, SIGQUIT}) sigaddset(&set, s);
    timespec t{static_cast<time_t>(wait_seconds), static_cast<long>((wait_seconds - std::floor(wait_seconds)) * 1e9)};
    siginfo_t info{};
    if (sigtimedwait(&set, &info, &t) > 0) {
        log_.info(std::string("received ") + strsignal(info.si_signo) + ": the job is ending");
        ended_ = true;
    }
    return ended_;
}

bool NodeAgent::over() {
    struct stat st {};
    if (!ended_ && lstat(cgroup_.c_str(), &st) != 0) ended_ = true;
    return ended_;
}

void NodeAgent::connect_to_leader() {
    std::string error;
    for (int port : leader_port_sequence(opt_.leader_ports, opt_.job_id)) {
        auto conn = connect_to(leader_address_, port, monotonic_now() + 1.0, &error);
        if (!conn) continue;
        error = agent_handshake(*conn, opt_.job_id, node_, geteuid(), monotonic_now() + kWelcomeSeconds);
        if (error.empty()) {
            leader_ = std::move(*conn);
            if (relay_) leader_.limit_messages(wire::max_message_bytes_for(1 + relay_->below().size()));
            last_sent_ranks_ = nullptr;  // a new leader connection knows nothing yet
            retry_seconds_ = 0.5;
            last_connect_error_.clear();
            log_.info(parent_ == info_.nodes[0]
                          ? "connected to the leader at " + leader_address_ + ":" + std::to_string(port)
                          : "connected to the leader through " + parent_ + " at " + leader_address_ + ":" + std::to_string(port));
            // A relay takes its children only once the job is known to be watched (a leader answered):
            // the agents of a job nobody watches hold no port.
            if (relay_ && relay_->port() == 0) {
                const std::string listen_error = relay_->listen(opt_.leader_ports);
                log_.info(listen_error.empty() ? "relaying for the " + std::to_string(relay_->below().size()) +
                                                     " nodes below on port " + std::to_string(relay_->port())
                                               : "cannot relay for the nodes below (" + listen_error +
                                                     "): the leader cannot see them");
            }
            return;
        }
        error = "port " + std::to_string(port) + ": " + error;
    }
    // The leader may not be there yet (it starts with the job's first step),
    // or at all (the job is not watched): look again, less and less often.
    if (error != last_connect_error_) log_.info("no leader yet (" + error + "); trying again");
    last_connect_error_ = error;
    signalled(retry_seconds_);
    retry_seconds_ = std::min(2 * retry_seconds_, kMaxRetrySeconds);
}

std::vector<RankProcess> NodeAgent::discover() {
    Discovery found = discover_ranks_among(cgroup_pids(cgroup_), info_.uid);
    ranks_ = newest_of_each_rank(found.ranks);  // steps run one after another reuse ranks
    return ranks_;
}

std::vector<std::pair<int, StackSample>> NodeAgent::sample(const std::vector<RankProcess>& wanted, bool full,
                                                           nlohmann::json* links) {
    std::vector<std::pair<int, StackSample>> out;
    std::vector<RankProcess> below;  // a relay's: asked of the nodes below
    for (const auto& w : wanted)
        if (w.node != node_) below.push_back(w);
    const bool relaying = relay_ && (!below.empty() || links);
    if (relaying) relay_->start(below, full, links != nullptr);
    bool rediscovered = false;
    for (const auto& w : wanted) {
        if (w.node != node_) continue;
        // Only processes this agent found itself in the job's cgroup are
        // touched, whatever the request says.
        auto known = [&] {
            return std::find_if(ranks_.begin(), ranks_.end(), [&](const RankProcess& r) {
                return r.rank == w.rank && r.pid == w.pid && r.start_time == w.start_time;
            });
        };
        auto it = known();
        if (it == ranks_.end() && !rediscovered) {
            discover();
            rediscovered = true;
            it = known();
        }
        StackSample s;
        if (it == ranks_.end()) {
            s.status = SampleStatus::gone;
            s.error = "not a rank of the job on this node (any more)";
        } else {
            s = walker_.sample(it->pid, it->start_time);
            if (s.status == SampleStatus::gone) walker_.forget(it->pid);
        }
        out.emplace_back(w.rank, std::move(s));
    }
    if (relaying) relay_->finish(out, links);
    return out;
}

void NodeAgent::serve(const nlohmann::json& request) {
    nlohmann::json reply{{"id", wire::request_id(request)}};
    const std::string type = request["type"];
    if (type == "ranks") {
        // Only changes travel: at the leader, discovery of a big job costs one
        // short message per node while its ranks stay the same.
        reply["type"] = "ranks";
        if (relay_) {  // the subtree's ranks and unseen nodes too
            nlohmann::json body = relay_->ranks(discover());
            if (body == last_sent_ranks_) reply["unchanged"] = true;
            else reply.update(last_sent_ranks_ = std::move(body));
        } else {
            nlohmann::json ranks = wire::ranks_json(discover());
            if (ranks == last_sent_ranks_) reply["unchanged"] = true;
            else reply["ranks"] = last_sent_ranks_ = std::move(ranks);
        }
    } else if (type == "sample" && request.contains("ranks")) {
        std::string error;
        auto wanted =
            wire::ranks_from_json(request["ranks"], node_, &error, relay_ ? relay_->below() : std::set<std::string>{});
        if (!wanted) {  // said back, so that the leader names why it drops this agent
            log_.info("a sample request this agent cannot take: " + error);
            reply["type"] = "error";
            reply["error"] = "bad sample request: " + error;
            return send_reply(reply);
        }
        reply["type"] = "samples";
        // json::value would throw on a "full" that is not a boolean, ending the agent.
        nlohmann::json links = nlohmann::json::object();
        const bool full = wire::sample_full(request);
        wire::put_samples(reply, sample(*wanted, full, wire::sample_link(request) ? &links : nullptr), full,
                          wire::sample_packed(request), wire::sample_stop_times(request));
        if (!links.empty()) reply["links"] = std::move(links);
        if (wire::sample_link(request)) {  // the slow verdict's link evidence, every few rounds
            std::vector<pid_t> pids;
            for (const auto& r : ranks_) pids.push_back(r.pid);
            if (auto ms = links_.read(pids, info_.uid)) reply["link_ms"] = *ms;
            if (std::string error = links_.take_error(); !error.empty()) log_.info(error);
        }
    } else {
        reply["type"] = "error";
        reply["error"] = "unknown request";
    }
    send_reply(reply);
}

void NodeAgent::send_reply(const nlohmann::json& reply) {
    std::string error = leader_.send(reply, monotonic_now() + 5.0);
    if (!error.empty()) {
        log_.info("lost the leader: " + error);
        leader_.close();
    }
}

int NodeAgent::run() {
    sigset_t set;
    sigemptyset(&set);
    for (int s : {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE}) sigaddset(&set, s);
    sigprocmask(SIG_BLOCK, &set, nullptr);
    int status = start() ? 0 : 1;
    while (status == 0 && !over()) {
        walker_.reap_pending();
        if (relay_) {
            relay_->accept();
            for (const auto& event : relay_->take_events()) log_.info(event);
        }
        if (!leader_.is_open()) {
            connect_to_leader();
            continue;
        }
        std::string error;
        auto request = leader_.receive(monotonic_now() + 0.5, &error);
        if (request) {
            try {
                serve(*request);
            } catch (const nlohmann::json::exception& e) {  // a field of the wrong type
                log_.info(std::string("malformed request from the leader: ") + e.what());
                leader_.close();
            }
        }
        else if (error != "timed out") {
            log_.info("lost the leader: " + error);
            leader_.close();
        }
        if (signalled(0)) break;
    }
    walker_.reap_pending();
    // A goodbye, so that the leader tells the job's end on this node from a lost agent.
    if (leader_.is_open()) leader_.send({{"type", "bye"}, {"why", "the job ended on " + node_}}, monotonic_now() + 1.0);
    if (!opt_.pid_file.empty()) {
        auto text = read_bounded(opt_.pid_file, 64);
        if (text && text->rfind(std::to_string(getpid()) + " ", 0) == 0) unlink(opt_.pid_file.c_str());
    }
    log_.info("done");
    return status;
}

}  // namespace

AgentParse parse_agent_options(const std::vector<std::string>& args) {
    AgentParse out;
    std::string ports;
    po::options_description desc = describe(out.options, ports);
    out.error = parse_with(desc, args, &out.help, "jobsentry agent --help");
    if (out.help || !out.error.empty()) return out;
    auto range = parse_port_range(ports);
    if (out.options.job_id == 0) out.error = "--job-id 0: accepted values are Slurm job ids (> 0)";
    else if (out.options.node_index == 0)
        out.error = "--node-index 0: accepted values are 1 or more (node 0 runs the leader, `jobsentry supervise`)";
    else if (!range)
        out.error = "--leader-ports " + ports + ": accepted values are port ranges FIRST-LAST within 1024-65535";
    else if (out.options.fan_in < 1 || out.options.fan_in > NodeTree::kMaxFanIn)
        out.error = "--fan-in " + std::to_string(out.options.fan_in) + ": accepted values are 1 to " +
                    std::to_string(NodeTree::kMaxFanIn);
    else out.options.leader_ports = *range;
    return out;
}

std::string agent_help() {
    AgentOptions defaults;
    std::string ports;
    std::ostringstream out;
    out << "Usage: jobsentry agent --job-id ID --node-index K [options]\n\n"
           "The node agent of a multi-node job, started by jobsentry.so as root on every node of the\n"
           "job but the first: samples the job's ranks on this node for the leader (jobsentry\n"
           "supervise on the first node), over TCP authenticated with munge. Takes no action itself.\n"
           "Exit status: 0 at the job's end, 2 for bad options, 1 when the job cannot be served.\n\n"
        << describe(defaults, ports);
    return out.str();
}

int run_node_agent(const AgentOptions& options) {
    NodeAgent agent(options);
    return agent.run();
}

}  // namespace jobsentry
