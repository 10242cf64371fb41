// leader_scale: the leader's side of a multi-node job (the real AgentHub, real
// munge credentials from the running munged, real TCP on loopback) with N
// agents that are separate processes (leader_scale_agent, one node each).
// Measures what docs/multi-node.md's "On paper" section estimated: the
// leader's CPU time (getrusage), peak RSS, open files, the time until every
// agent is authenticated, refresh_ranks over all agents, and the rounds of a
// verification (every rank, compact rounds; then, as after a hang's verdict,
// the frames of a suspect and of one rank per call chain: report_stacks.h),
// with the time from the last agent's answer to the hub's result. Then a second
// verification in which LOSE agents are lost mid-round (one falls silent; of
// 3 or more, one answers for a rank of another node too; of 4 or more, one
// refuses the request and, in a tree, the silent one's relay is slow over its
// own ranks; the others exit unanswered): checks that their ranks come back unreachable, the others'
// samples are all there, and the hub names exactly the lost nodes (the one
// that spoke for another node's rank, with that rank), which is what keeps Watcher::verify from confirming a hang
// (watcher_verify.cpp: unseen ranks, then job_.unseen_part()). Last, the
// sampling rounds that read the nodes' links (every 4th round of a watcher):
// one node's ranks sampled, every node's link asked for, at most
// AgentHub::kMaxLinkOnlyNodes of them in requests of their own, taking turns.
// With --fan-in F the agents form the tree of agents of node_tree.h (relays on ports 20000 + their
// node): the leader takes F connections, and the lost agents are leaves below relays.
//   leader_scale --agents N [--ranks-per-node 64] [--rounds 5] [--turn 0.4] [--lose 3]
//                [--ports 7300-7399] [--agent PATH] [--fan-in F [--relay-ends]] [--header]
// Prints one row of each of three markdown tables ("cost", "loss" and "link" lines).
#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "base/clock.h"
#include "bench/leader_scale_fleet.h"
#include "hang/model/report_stacks.h"
#include "hang/multinode/agent_hub.h"
#include "hang/multinode/node_tree.h"

namespace {

using namespace jobsentry;

constexpr uint32_t kJob = 4242;
constexpr double kConnectSeconds = 120;

struct Options {
    int agents = 16;
    int ranks_per_node = 64;
    int rounds = 5;      // of a verification, the default verify_rounds
    double turn = 0.4;   // the leader looks for hellos at every sample (I = 400 ms)
    int lose = 3;
    std::string ports = "7300-7399";
    std::string agent;
    unsigned fan_in = 0;  // 0: a star
    bool relay_ends = false;  // in a tree, a relay also says goodbye at the round of the losses
    bool header = false;
};
constexpr int kRelayPorts = 20000;

double cpu_seconds() {
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    return self.ru_utime.tv_sec + self.ru_stime.tv_sec + (self.ru_utime.tv_usec + self.ru_stime.tv_usec) / 1e6;
}

// A kB figure of /proc/self/status ("VmHWM", "VmRSS"), in MiB.
double status_mib(const char* key) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(std::string(key) + ":", 0) == 0) return std::atof(line.c_str() + std::strlen(key) + 1) / 1024.0;
    return 0;
}

int open_files() {
    int n = 0;
    if (DIR* d = opendir("/proc/self/fd")) {
        while (dirent* e = readdir(d)) n += e->d_name[0] != '.';
        closedir(d);
    }
    return n - 1;  // the directory's own
}

// Wall and CPU seconds of one step.
struct Span {
    double wall0 = monotonic_now(), cpu0 = cpu_seconds();
    double wall = 0, cpu = 0;
    void end() {
        wall = monotonic_now() - wall0;
        cpu = cpu_seconds() - cpu0;
    }
};

struct Round {
    Span span;
    double lag = 0;  // from the last agent's answer to the hub's result
    uint64_t bytes = 0;
    size_t ok = 0, unreachable = 0, other = 0;
    std::map<int, StackSample> samples;
};

class Bench {
public:
    explicit Bench(Options o);
    int run();

private:
    bool connect_all();
    Round round(const std::vector<RankProcess>& ranks, bool full);
    void print_cost(const Round& compact, const Round& fetch, size_t twins, double verification_cpu) const;
    void check_losses();
    void check_link_rounds();

    Options o_;
    PortRange ports_;
    std::set<std::string> lost_nodes_;
    std::string ending_relay_;           // --relay-ends: the relay that says goodbye
    std::set<std::string> ended_nodes_;  // it and the nodes below it: unreachable, "ended"
    int liar_ = -1;  // the lost agent that answers for another node's rank; -1 with fewer than 3 lost
    int refuser_ = -1;        // the lost agent that answers with an error; -1 with fewer than 4 lost
    std::string slow_relay_;  // the silent agent's relay, slow over its own ranks at the losses ("" if none)
    bench::FleetOptions fleet_options_;
    std::unique_ptr<AgentHub> hub_;
    std::unique_ptr<bench::Fleet> fleet_;
    std::vector<RankProcess> ranks_;
    Span connect_, refresh_full_, refresh_unchanged_;
    double spawn_seconds_ = 0;
    int fds_ = 0;
};

Bench::Bench(Options o) : o_(std::move(o)) {
    ports_ = parse_port_range(o_.ports).value_or(PortRange{7300, 100});
    fleet_options_.agent_binary = o_.agent;
    fleet_options_.job = kJob;
    fleet_options_.agents = o_.agents;
    fleet_options_.ranks_per_node = o_.ranks_per_node;
    fleet_options_.die_on_sample.assign(static_cast<size_t>(o_.agents), 0);
    fleet_options_.stall_on_sample.assign(static_cast<size_t>(o_.agents), 0);
    fleet_options_.lie_on_sample.assign(static_cast<size_t>(o_.agents), 0);
    fleet_options_.refuse_on_sample.assign(static_cast<size_t>(o_.agents), 0);
    fleet_options_.slow_from_sample.assign(static_cast<size_t>(o_.agents), 0);
    fleet_options_.fan_in = o_.fan_in;
    fleet_options_.relay_ports = kRelayPorts;
    // Lost in the second round of the second verification: spread over the node list. Of 3, the first
    // answers for a rank of the next node besides its own, the last falls silent instead of closing, the
    // other exits unanswered; of 4 or more, the first falls silent, the second lies, the third refuses the
    // request (an error reply) and the others exit, and in a tree the silent one's relay is slow over its
    // own ranks in that round (relay.h: its children's time runs while it samples). Of fewer than 3, the
    // last falls silent and the others exit.
    // In a tree they are leaves, below relays (agent i is node i+1; leaves are the last nodes).
    const int first_leaf = o_.fan_in == 0 ? 0 : (o_.agents + static_cast<int>(o_.fan_in) - 1) / static_cast<int>(o_.fan_in);
    const int leaves = o_.agents - first_leaf;
    const int at = o_.rounds + 2;
    for (int k = 0; k < o_.lose && k < leaves; ++k) {
        const size_t i = static_cast<size_t>(first_leaf + (2 * k + 1) * leaves / (2 * o_.lose));
        const bool many = o_.lose >= 4;
        const bool silent = many ? k == 0 : k + 1 == o_.lose;
        const bool lies = many ? k == 1 : (k == 0 && o_.lose == 3);
        const bool refuses = many && k == 2;
        (silent ? fleet_options_.stall_on_sample
         : lies ? fleet_options_.lie_on_sample
         : refuses ? fleet_options_.refuse_on_sample
                   : fleet_options_.die_on_sample)[i] = at;
        lost_nodes_.insert(bench::Fleet::node_name(static_cast<int>(i)));
        if (lies) liar_ = static_cast<int>(i);
        if (refuses) refuser_ = static_cast<int>(i);
        if (silent && many && o_.fan_in > 0) {
            const size_t relay = NodeTree(static_cast<size_t>(o_.agents) + 1, o_.fan_in).parent(i + 1);
            if (relay > 0) {
                fleet_options_.slow_from_sample[relay - 1] = at;
                slow_relay_ = bench::Fleet::node_name(static_cast<int>(relay) - 1);
            }
        }
    }
    // The last relay says goodbye at the same round: its own node's ranks end with it, and the nodes
    // below it, lost ones included, can no longer be seen (agent_hub.cpp, AgentHub::ended).
    fleet_options_.bye_on_sample.assign(static_cast<size_t>(o_.agents), 0);
    if (o_.relay_ends && o_.fan_in > 0) {
        const NodeTree tree(static_cast<size_t>(o_.agents) + 1, o_.fan_in);
        size_t relay = 0;  // tree node; agent relay - 1
        for (size_t node = 1; node <= static_cast<size_t>(o_.agents); ++node)
            if (!tree.children(node).empty()) relay = node;
        if (relay > 0) {
            ending_relay_ = bench::Fleet::node_name(static_cast<int>(relay) - 1);
            fleet_options_.bye_on_sample[relay - 1] = at;
            ended_nodes_.insert(ending_relay_);
            for (size_t b : tree.below(relay)) ended_nodes_.insert(bench::Fleet::node_name(static_cast<int>(b) - 1));
        }
    }
}

bool Bench::connect_all() {
    // One connection per node, as the supervisor does (slurm_job.cpp).
    rlimit files{};
    getrlimit(RLIMIT_NOFILE, &files);
    const rlim_t needed = static_cast<rlim_t>(o_.agents) + 64;
    if (files.rlim_max < needed) files.rlim_max = needed;  // root may
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);

    std::vector<std::string> nodes;
    for (int i = 0; i < o_.agents; ++i) nodes.push_back(bench::Fleet::node_name(i));
    if (o_.fan_in == 0) {
        hub_ = std::make_unique<AgentHub>(kJob, geteuid(), nodes);
    } else {  // as SlurmJob::start_multi_node: the leader is node 0, agent i node i+1
        const NodeTree tree(nodes.size() + 1, o_.fan_in);
        std::vector<std::string> children;
        std::map<std::string, std::vector<std::string>> below;
        for (size_t c : tree.children(0)) {
            children.push_back(nodes[c - 1]);
            for (size_t n : tree.below(c)) below[nodes[c - 1]].push_back(nodes[n - 1]);
        }
        hub_ = std::make_unique<AgentHub>(kJob, geteuid(), children, reply_seconds_for_height(tree.height(0)), below);
    }
    std::string error = hub_->listen(ports_);
    if (!error.empty()) {
        std::cerr << "leader_scale: " << error << "\n";
        return false;
    }
    fleet_options_.port = hub_->port();
    fleet_ = std::make_unique<bench::Fleet>(fleet_options_);
    connect_ = Span();
    error = fleet_->start();
    spawn_seconds_ = monotonic_now() - connect_.wall0;
    if (!error.empty()) {
        std::cerr << "leader_scale: " << error << "\n";
        return false;
    }
    // As the supervisor: a look for hellos at every turn, never a wait for one.
    while (monotonic_now() - connect_.wall0 < kConnectSeconds) {
        hub_->accept_agents();
        if (o_.fan_in > 0) hub_->refresh_ranks();  // the relays say which nodes below them they see
        if (hub_->unseen_nodes().empty()) break;
        usleep(static_cast<useconds_t>(o_.turn * 1e6));
    }
    connect_.end();
    fds_ = open_files();
    for (const auto& event : hub_->take_events())
        if (event.find(" connected") == std::string::npos) std::cerr << "leader_scale: " << event << "\n";
    const size_t missing = hub_->unseen_nodes().size();
    if (missing > 0) std::cerr << "leader_scale: " << missing << " agents not authenticated after " << kConnectSeconds << " s\n";
    return missing == 0;
}

Round Bench::round(const std::vector<RankProcess>& ranks, bool full) {
    Round r;
    fleet_->clear_answers();
    const uint64_t bytes0 = hub_->bytes_sent() + hub_->bytes_received();
    r.span = Span();
    r.samples = hub_->sample(ranks, full);
    r.span.end();
    const double last = fleet_->last_answer();
    r.lag = last > 0 ? r.span.wall0 + r.span.wall - last : 0;
    r.bytes = hub_->bytes_sent() + hub_->bytes_received() - bytes0;
    for (const auto& [rank, s] : r.samples) {
        if (s.status == SampleStatus::ok) ++r.ok;
        else if (s.status == SampleStatus::unreachable) ++r.unreachable;
        else ++r.other;
    }
    return r;
}

void Bench::print_cost(const Round& compact, const Round& fetch, size_t twins, double verification_cpu) const {
    auto ms = [](double s) { return std::to_string(static_cast<long>(s * 1000 + 0.5)); };
    char rss[32];
    std::snprintf(rss, sizeof rss, "%.1f", status_mib("VmHWM"));
    char cpu[32];
    std::snprintf(cpu, sizeof cpu, "%.2f", cpu_seconds());
    char vcpu[32];
    std::snprintf(vcpu, sizeof vcpu, "%.3f", verification_cpu);
    std::cout << "cost: | " << o_.agents << " | " << ranks_.size() << " | " << cpu << " | " << rss << " | " << fds_
              << " | " << ms(connect_.wall) << " (spawn " << ms(spawn_seconds_) << ") | " << ms(connect_.cpu) << " | "
              << ms(refresh_full_.wall) << " / " << ms(refresh_full_.cpu) << " | " << ms(refresh_unchanged_.wall) << " / "
              << ms(refresh_unchanged_.cpu) << " | " << ms(compact.span.wall) << " / " << ms(compact.span.cpu) << " | "
              << compact.bytes / 1024 << " | " << fetch.samples.size() << " (" << twins << " by a twin) | "
              << ms(fetch.span.wall) << " / " << ms(fetch.span.cpu) << " | " << fetch.bytes / 1024 << " | " << vcpu
              << " | " << ms(compact.lag) << " / " << ms(fetch.lag) << " |\n";
}

void Bench::check_losses() {
    // The second verification: agents are lost at its second round.
    std::vector<Round> rounds;
    for (int k = 0; k < o_.rounds; ++k) rounds.push_back(round(ranks_, false));
    // Below relays the losses are the relays' to see: the leader learns of them with the rank lists,
    // which it asks for again after a round with unreachable ranks (a watcher looks every 2 s).
    if (o_.fan_in > 0) hub_->refresh_ranks();
    const auto unseen = hub_->unseen_nodes();
    std::set<std::string> unseen_set;
    for (const auto& [node, why] : unseen) unseen_set.insert(node);
    size_t lost_events = 0;
    for (const auto& event : hub_->take_events()) {
        std::cerr << "leader_scale: " << event << "\n";
        lost_events += event.find(" lost (") != std::string::npos;
    }
    // From the second round on, exactly the lost nodes' ranks are unreachable, and every other rank answered;
    // an ending relay's and its subtree's are unreachable as ended.
    bool exact = rounds[0].ok == ranks_.size();
    for (size_t k = 1; k < rounds.size(); ++k) {
        for (const auto& r : ranks_) {
            const StackSample& s = rounds[k].samples[r.rank];
            const char* why = ended_nodes_.count(r.node) ? "ended" : lost_nodes_.count(r.node) ? "lost" : nullptr;
            if (why ? (s.status != SampleStatus::unreachable || s.error.find(why) == std::string::npos)
                    : s.status != SampleStatus::ok)
                exact = false;
        }
    }
    // Unseen: the lost nodes, and every node below the relay that ended (not the relay's own: its job ended).
    std::set<std::string> expected_unseen = lost_nodes_;
    for (const auto& node : ended_nodes_)
        if (node == ending_relay_) expected_unseen.erase(node);
        else expected_unseen.insert(node);
    bool ended_named = true;
    for (const auto& node : ended_nodes_)
        if (node != ending_relay_ && (!unseen.count(node) || unseen.at(node).find("its relay on " + ending_relay_ +
                                                                                 " ended") == std::string::npos))
            ended_named = false;
    // The liar is named with the rank it spoke for: the next node's first.
    const bool liar_named =
        liar_ < 0 || (unseen.count(bench::Fleet::node_name(liar_)) &&
                      unseen.at(bench::Fleet::node_name(liar_))
                              .find("a sample of rank " + std::to_string(o_.ranks_per_node * (liar_ + 1)) +
                                    ", which it was not asked for") != std::string::npos);
    // The one that refused is named with why (unless its relay ended: then that is all that is known).
    const std::string refuser = refuser_ < 0 ? "" : bench::Fleet::node_name(refuser_);
    const bool refuser_named =
        refuser.empty() || ended_nodes_.count(refuser) ||
        (unseen.count(refuser) && unseen.at(refuser).find("it refused the request: bad sample request") != std::string::npos);
    const bool named = unseen_set == expected_unseen && (o_.fan_in > 0 || lost_events == lost_nodes_.size()) &&
                       liar_named && refuser_named && ended_named;
    std::set<std::string> gone = lost_nodes_;
    gone.insert(ended_nodes_.begin(), ended_nodes_.end());
    double slowest = 0;
    for (const auto& r : rounds) slowest = std::max(slowest, r.span.wall);
    char wall[32];
    std::snprintf(wall, sizeof wall, "%.2f", rounds.size() > 1 ? rounds[1].span.wall : 0);
    // Watcher::verify confirms no hang while job_.unseen_part() is non-empty,
    // which SlurmJob builds from exactly this unseen_nodes().
    const int exits = static_cast<int>(lost_nodes_.size()) - 1 - (liar_ < 0 ? 0 : 1) - (refuser_ < 0 ? 0 : 1);
    std::cout << "loss: | " << o_.agents << " | " << lost_nodes_.size() << " (" << (liar_ < 0 ? "" : "1 lies, ")
              << (refuser_ < 0 ? "" : "1 refuses, ") << exits << " exit, 1 silent)"
              << (slow_relay_.empty() ? "" : "; its relay " + slow_relay_ + " slow")
              << (ending_relay_.empty() ? "" : "; relay " + ending_relay_ + " ends, " +
                                                   std::to_string(ended_nodes_.size() - 1) + " nodes below it")
              << " | " << (rounds.size() > 1 ? rounds[1].unreachable : 0) << " | "
              << (rounds.size() > 1 ? rounds[1].ok : 0) << " of " << ranks_.size() - gone.size() * o_.ranks_per_node
              << " | " << wall << " | " << (exact ? "yes" : "NO") << " | " << (named ? "yes" : "NO") << " | "
              << (unseen.empty() ? "NO" : "no (" + unseen.begin()->second + (unseen.size() > 1 ? ", ..." : "") + ")")
              << " |\n";
}

void Bench::check_link_rounds() {
    // As in a watcher's link round: the ranks of one node sampled (the monitored ranks and the
    // visitors of a round are a few), every connected node's link asked for.
    std::set<std::string> live;
    for (const auto& r : ranks_)
        if (!lost_nodes_.count(r.node) && !ended_nodes_.count(r.node)) live.insert(r.node);
    std::set<std::string> read;
    std::vector<double> wall, cpu;
    size_t readings = 0, rounds_to_all = 0;
    const size_t rounds = live.size() / AgentHub::kMaxLinkOnlyNodes + 2;
    for (size_t k = 0; k < rounds; ++k) {
        const std::string& node = *std::next(live.begin(), static_cast<long>(k % live.size()));
        std::vector<RankProcess> sampled;
        for (const auto& r : ranks_)
            if (r.node == node) sampled.push_back(r);
        std::map<std::string, double> links;
        Span span;
        hub_->sample(sampled, false, &links);
        span.end();
        wall.push_back(span.wall);
        cpu.push_back(span.cpu);
        readings = std::max(readings, links.size());
        for (const auto& [n, ms] : links) read.insert(n);
        if (!rounds_to_all && std::includes(read.begin(), read.end(), live.begin(), live.end())) rounds_to_all = k + 1;
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    auto ms = [](double s) { return std::to_string(static_cast<long>(s * 1000 + 0.5)); };
    std::cout << "link: | " << o_.agents << " | " << live.size() << " | " << AgentHub::kMaxLinkOnlyNodes << " | "
              << readings << " | " << ms(wall[wall.size() / 2]) << " / " << ms(cpu[cpu.size() / 2]) << " | "
              << (rounds_to_all ? std::to_string(rounds_to_all) : "NOT within " + std::to_string(rounds)) << " |\n";
}

int Bench::run() {
    if (!connect_all()) return 1;
    refresh_full_ = Span();
    ranks_ = hub_->refresh_ranks();  // every agent's list, new to the hub
    refresh_full_.end();
    refresh_unchanged_ = Span();
    const size_t again = hub_->refresh_ranks().size();  // asked again at once (a list changed): "unchanged"
    refresh_unchanged_.end();
    if (ranks_.size() != static_cast<size_t>(o_.agents * o_.ranks_per_node) || again != ranks_.size()) {
        std::cerr << "leader_scale: " << ranks_.size() << " ranks known, expected " << o_.agents * o_.ranks_per_node << "\n";
        return 1;
    }
    // A verification: every rank, compact rounds; then, as after a hang's verdict, the report's stacks.
    std::vector<Round> rounds;
    double verification_cpu = 0;
    for (int k = 0; k < o_.rounds; ++k) {
        rounds.push_back(round(ranks_, false));
        verification_cpu += rounds.back().span.cpu;
        if (rounds.back().ok != ranks_.size()) {
            std::cerr << "leader_scale: round " << k + 1 << ": " << rounds.back().ok << " of " << ranks_.size()
                      << " ranks answered\n";
            return 1;
        }
    }
    std::map<int, StackSample> latest = rounds.back().samples;
    // A suspect on the first node, which is never among the lost ones: the fetch asks only that
    // agent, so every agent still counts the same sample requests (die_on_sample).
    const std::vector<int> suspects{ranks_[std::min<size_t>(5, ranks_.size() - 1)].rank};
    std::vector<RankProcess> fetch;
    for (int rank : report_stack_fetches(latest, suspects))
        for (const auto& r : ranks_)
            if (r.rank == rank) fetch.push_back(r);
    Round fetched = round(fetch, true);
    verification_cpu += fetched.span.cpu;
    for (auto& [rank, s] : fetched.samples)
        if (s.status == SampleStatus::ok && !s.digest_only) latest[rank] = s;
    const size_t twins = report_stack_twins(latest).size();
    if (fetched.ok != fetch.size() || twins + fetch.size() != ranks_.size()) {
        std::cerr << "leader_scale: report stacks: " << fetched.ok << " of " << fetch.size() << " fetched, " << twins
                  << " twins of " << ranks_.size() << " ranks\n";
        return 1;
    }
    // The median compact round stands for them all.
    std::vector<Round*> compact;
    for (auto& r : rounds) compact.push_back(&r);
    std::sort(compact.begin(), compact.end(), [](Round* a, Round* b) { return a->span.wall < b->span.wall; });
    print_cost(*compact[compact.size() / 2], fetched, twins, verification_cpu);
    if (o_.lose > 0) check_losses();
    check_link_rounds();
    hub_.reset();  // the agents see the leader close and end
    fleet_->end();
    return 0;
}

bool parse(int argc, char** argv, Options* o) {
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        if (key == "--header") {
            o->header = true;
            continue;
        }
        if (key == "--relay-ends") {
            o->relay_ends = true;
            continue;
        }
        if (i + 1 >= argc) return false;
        const std::string value = argv[++i];
        if (key == "--agents") o->agents = std::atoi(value.c_str());
        else if (key == "--ranks-per-node") o->ranks_per_node = std::atoi(value.c_str());
        else if (key == "--rounds") o->rounds = std::atoi(value.c_str());
        else if (key == "--turn") o->turn = std::atof(value.c_str());
        else if (key == "--lose") o->lose = std::atoi(value.c_str());
        else if (key == "--ports") o->ports = value;
        else if (key == "--agent") o->agent = value;
        else if (key == "--fan-in") o->fan_in = static_cast<unsigned>(std::atoi(value.c_str()));
        else return false;
    }
    if (o->agent.empty()) {
        char self[4096];
        const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        const std::string path(self, n > 0 ? static_cast<size_t>(n) : 0);
        o->agent = path.substr(0, path.rfind('/') + 1) + "leader_scale_agent";
    }
    return o->agents > 0 && o->ranks_per_node > 0 && o->rounds >= 2 && o->lose >= 0 && o->lose < o->agents;
}

void print_header() {
    std::cout << "cost: | agents | ranks | leader CPU, whole run (s) | leader peak RSS (MiB) | open files | all authenticated "
                 "(ms) | leader CPU to authenticate (ms) | refresh_ranks, full lists: wall / CPU (ms) | refresh_ranks, "
                 "unchanged: wall / CPU (ms) | compact round: wall / CPU (ms) | compact round (KiB) | report stacks: "
                 "ranks fetched | report stacks: wall / CPU (ms) | report stacks (KiB) | leader CPU per verification (s) | "
                 "last answer → result, compact round / report stacks (ms) |\n"
                 "cost: |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
                 "loss: | agents | lost mid-verification | unreachable ranks | others answered | round with the loss (s) "
                 "| exactly the lost ranks unreachable, all others ok | hub names exactly the lost nodes | hang "
                 "possible |\n"
                 "loss: |---|---|---|---|---|---|---|---|\n"
                 "link: | agents | nodes with an agent | link-only requests per round, at most | link readings per round, "
                 "at most | link round: wall / CPU (ms), median | link rounds until every node was read |\n"
                 "link: |---|---|---|---|---|---|\n";
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, &o)) {
        std::cerr << "usage: leader_scale --agents N [--ranks-per-node 64] [--rounds 5] [--turn 0.4] [--lose 3]"
                     " [--ports 7300-7399] [--agent PATH] [--fan-in F [--relay-ends]] [--header]\n";
        return 2;
    }
    if (o.header) {
        print_header();
        return 0;
    }
    return Bench(std::move(o)).run();
}
