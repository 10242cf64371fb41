// leader_scale_agent: one synthetic node agent for bench/leader_scale.sh. It
// speaks the real protocol with the project's own code (connect_to,
// agent_handshake with a real munge credential of its own node name,
// wire::ranks_json / wire::sample_json), so the leader does exactly the work
// a real agent's messages cause; only the ranks are made up: RANKS processes
// per node waiting in MPI_Waitall under a LAMMPS-like stack (about 3 kB a
// rank in full samples, as real ones). After each reply it writes the time
// (CLOCK_MONOTONIC, shared by the host's processes) into its slot of a shared
// file, so that the leader knows when the last agent answered.
//   leader_scale_agent --port P --job J --node n0001 --index I --first-rank R
//                      [--ranks 64] [--slots FILE] [--die-on-sample K | --stall-on-sample K | --lie-on-sample K |
//                       --bye-on-sample K | --refuse-on-sample K] [--slow-from-sample K]
//                      [--fan-in F --agents N --relay-ports B]
// With --fan-in, the agents form the tree of agents of node_tree.h (the leader is node 0, agent I
// node I+1): an agent whose parent is the leader connects to P, the others to port B+parent, and an
// agent with children relays for its subtree (relay.h) on port B+its node.
// --die-on-sample K exits without answering its K-th sample request (an agent
// killed mid-verification); --stall-on-sample K stops answering at it (a node
// that is gone: the leader sees silence, not a closed connection);
// --bye-on-sample K says goodbye instead and ends (the job ended on its node; a
// relay's nodes below then cannot be seen);
// --lie-on-sample K answers it with a sample of the next node's first rank too
// (an agent that speaks for ranks it does not own); --refuse-on-sample K answers it with an error, as
// node_agent.cpp does a request it cannot take; --slow-from-sample K (a relay) takes kSlowOwnSeconds over
// its own ranks at it and every later one (its count runs ahead of its children's: it is asked for rounds
// that need none of their ranks), between sending its children's requests and collecting their replies, as
// node_agent.cpp does (ranks slow to stop, or many): the replies of the children, a silent one
// included, must still reach the parent in its time.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/clock.h"
#include "hang/multinode/connection.h"
#include "hang/multinode/handshake.h"
#include "hang/multinode/relay.h"
#include "hang/multinode/wire.h"

namespace {

using namespace jobsentry;

constexpr double kSlowOwnSeconds = 1.5;  // under a relay's 2 s for its children; 3.5 s with them is over its parent's 3

struct Options {
    int port = 0;
    uint32_t job = 0;
    std::string node;
    int index = 0;
    int first_rank = 0;
    int ranks = 64;
    std::string slots;
    int die_on = 0;    // 0: never
    int stall_on = 0;  // 0: never
    int lie_on = 0;    // 0: never
    int bye_on = 0;    // 0: never
    int refuse_on = 0; // 0: never
    int slow_from = 0; // 0: never
    unsigned fan_in = 0;  // 0: a star
    int agents = 0;       // with fan_in: the fleet's size
    int relay_ports = 0;  // with fan_in: port B + node of each relay
};

// A rank of an Open MPI job waiting for its neighbours: innermost first.
StackSample waiting_rank(int rank) {
    static const char* const kFrames[][2] = {
        {"__GI___poll", "/usr/lib/x86_64-linux-gnu/libc.so.6"},
        {"poll_dispatch", "/usr/lib/x86_64-linux-gnu/libevent_core-2.1.so.7"},
        {"event_base_loop", "/usr/lib/x86_64-linux-gnu/libevent_core-2.1.so.7"},
        {"opal_progress", "/usr/lib/x86_64-linux-gnu/libopen-pal.so.40"},
        {"ompi_request_default_wait_all", "/usr/lib/x86_64-linux-gnu/libmpi.so.40"},
        {"PMPI_Waitall", "/usr/lib/x86_64-linux-gnu/libmpi.so.40"},
        {"_ZN9LAMMPS_NS11CommBrick12reverse_commEv", "/usr/lib/x86_64-linux-gnu/liblammps.so.0"},
        {"_ZN9LAMMPS_NS6Verlet3runEi", "/usr/lib/x86_64-linux-gnu/liblammps.so.0"},
        {"_ZN9LAMMPS_NS3Run7commandEiPPc", "/usr/lib/x86_64-linux-gnu/liblammps.so.0"},
        {"_ZN9LAMMPS_NS5Input15execute_commandEv", "/usr/lib/x86_64-linux-gnu/liblammps.so.0"},
        {"_ZN9LAMMPS_NS5Input4fileEv", "/usr/lib/x86_64-linux-gnu/liblammps.so.0"},
        {"main", "/usr/bin/lmp"},
        {"__libc_start_call_main", "/usr/lib/x86_64-linux-gnu/libc.so.6"},
        {"__libc_start_main_impl", "/usr/lib/x86_64-linux-gnu/libc.so.6"},
        {"_start", "/usr/bin/lmp"},
    };
    StackSample s;
    s.status = SampleStatus::ok;
    s.state = 'S';
    s.in_mpi = true;
    s.cpu_ticks = 1000 + static_cast<uint64_t>(rank);
    s.main_cpu_ticks = s.main_user_ticks = s.cpu_ticks;
    // Deeper stacks than this table are common (solver layers): repeat the
    // application part to about 24 frames, ~3 kB of JSON a rank.
    for (int i = 0; i < 24; ++i) {
        const int k = i < 11 ? i : 6 + (i - 11) % 9;
        const bool mpi = k >= 3 && k <= 5;
        s.frames.push_back({0x7f0000001000ull + 0x40ull * static_cast<uint64_t>(i), kFrames[k][0], kFrames[k][1], mpi});
    }
    // Where a waiting rank is caught varies (the progress loop polls, then dispatches): four call chains.
    static const char* const kInnermost[] = {"__GI___poll", "epoll_wait", "mca_btl_vader_component_progress",
                                             "opal_timer_linux_get_cycles_sys_timer"};
    s.frames[0].function = kInnermost[rank % 4];
    return s;
}

class SyntheticAgent {
public:
    explicit SyntheticAgent(Options o) : o_(std::move(o)) {
        for (int i = 0; i < o_.ranks; ++i) {
            const int rank = o_.first_rank + i;
            // Made-up pids (distinct, in the wire's range): nothing here is traced.
            RankProcess r;
            r.rank = rank;
            r.pid = static_cast<pid_t>(100000 + rank % 4000000);
            r.start_time = static_cast<uint64_t>(5000 + rank);
            r.node = o_.node;
            ranks_.push_back(r);
            samples_.push_back(waiting_rank(rank));
        }
        map_slots();
        if (o_.fan_in > 0) {
            std::vector<std::string> names{"leader"};
            for (int i = 0; i < o_.agents; ++i) {
                char name[16];
                std::snprintf(name, sizeof name, "n%04d", i + 1);
                names.push_back(name);
            }
            const NodeTree tree(names.size(), o_.fan_in);
            const size_t own = static_cast<size_t>(o_.index) + 1;
            const size_t parent = tree.parent(own);
            if (parent != 0) o_.port = o_.relay_ports + static_cast<int>(parent);
            if (!tree.children(own).empty()) relay_ = std::make_unique<Relay>(o_.job, geteuid(), tree, own, names);
        }
    }
    int run();

private:
    void map_slots();
    bool connect();
    nlohmann::json serve(const nlohmann::json& request);
    std::vector<std::pair<int, StackSample>> samples(const nlohmann::json& asked, bool full, nlohmann::json* links);

    Options o_;
    std::vector<RankProcess> ranks_;
    std::vector<StackSample> samples_;
    Connection leader_;
    std::unique_ptr<Relay> relay_;
    nlohmann::json last_sent_ranks_;
    double* slots_ = nullptr;
    int sample_requests_ = 0;
};

void SyntheticAgent::map_slots() {
    if (o_.slots.empty()) return;
    int fd = open(o_.slots.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) return;
    void* p = mmap(nullptr, static_cast<size_t>(o_.index + 1) * sizeof(double), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p != MAP_FAILED) slots_ = static_cast<double*>(p);
}

// As the real agent: 1 s to connect, 10 s for the welcome (the leader
// answers hellos only at its next turn), then again after 0.5 s doubling to 10 s.
bool SyntheticAgent::connect() {
    double retry = 0.5;
    for (int attempt = 0; attempt < 20; ++attempt) {
        std::string error;
        auto conn = connect_to("127.0.0.1", o_.port, monotonic_now() + 1.0, &error);
        if (conn) error = agent_handshake(*conn, o_.job, o_.node, geteuid(), monotonic_now() + 10.0);
        if (conn && error.empty()) {
            leader_ = std::move(*conn);
            if (relay_) {
                leader_.limit_messages(wire::max_message_bytes_for(1 + relay_->below().size()));
                const std::string listen_error =
                    relay_->listen(PortRange{o_.relay_ports + o_.index + 1, 1});
                if (!listen_error.empty()) std::cerr << o_.node << ": " << listen_error << "\n";
            }
            return true;
        }
        std::cerr << o_.node << ": " << error << "; again in " << retry << " s\n";
        usleep(static_cast<useconds_t>(retry * 1e6));
        retry = std::min(2 * retry, 10.0);
    }
    return false;
}

std::vector<std::pair<int, StackSample>> SyntheticAgent::samples(const nlohmann::json& asked, bool full,
                                                                 nlohmann::json* links) {
    std::vector<std::pair<int, StackSample>> out;
    std::string error;
    auto wanted = wire::ranks_from_json(asked, o_.node, &error, relay_ ? relay_->below() : std::set<std::string>{});
    if (!wanted) return out;
    std::vector<RankProcess> below;
    for (const auto& w : *wanted) {
        if (w.node != o_.node) {
            below.push_back(w);
            continue;
        }
        const int i = w.rank - o_.first_rank;
        if (i >= 0 && i < o_.ranks) {
            out.emplace_back(w.rank, samples_[static_cast<size_t>(i)]);
        } else {
            StackSample gone;
            gone.status = SampleStatus::gone;
            gone.error = "not a rank of the job on this node (any more)";
            out.emplace_back(w.rank, gone);
        }
    }
    const bool relaying = relay_ && (!below.empty() || links);
    if (relaying) relay_->start(below, full, links != nullptr);
    // Its own made-up samples are in hand already; a slow round stands for ranks slow to sample.
    if (o_.slow_from > 0 && sample_requests_ >= o_.slow_from) usleep(static_cast<useconds_t>(kSlowOwnSeconds * 1e6));
    if (relaying) relay_->finish(out, links);
    (void)full;  // the made-up samples are whole; put_samples compacts them as asked
    return out;
}

nlohmann::json SyntheticAgent::serve(const nlohmann::json& request) {
    nlohmann::json reply{{"id", wire::request_id(request)}};
    const std::string type = request["type"];
    if (type == "ranks") {  // only changes travel, as node_agent.cpp does
        reply["type"] = "ranks";
        nlohmann::json body = relay_ ? relay_->ranks(ranks_) : nlohmann::json{{"ranks", wire::ranks_json(ranks_)}};
        if (body == last_sent_ranks_) reply["unchanged"] = true;
        else reply.update(last_sent_ranks_ = std::move(body));
    } else if (type == "sample" && sample_requests_ == o_.refuse_on) {
        reply["type"] = "error";  // as node_agent.cpp answers a sample request it cannot take
        reply["error"] = "bad sample request: refused as asked (--refuse-on-sample)";
    } else if (type == "sample" && request.contains("ranks")) {
        reply["type"] = "samples";
        nlohmann::json links = nlohmann::json::object();
        const bool full = wire::sample_full(request);
        auto answer = samples(request["ranks"], full, wire::sample_link(request) ? &links : nullptr);
        if (!links.empty()) reply["links"] = std::move(links);
        if (sample_requests_ == o_.lie_on)  // a waiting rank's sample, of a rank that is not this node's
            answer.emplace_back(o_.first_rank + o_.ranks, samples_[0]);
        wire::put_samples(reply, answer, full, wire::sample_packed(request), wire::sample_stop_times(request));
        if (wire::sample_link(request)) reply["link_ms"] = 0.2;  // a quiet link's reading (link_reader.h)
    } else {
        reply["type"] = "error";
        reply["error"] = "unknown request";
    }
    return reply;
}

int SyntheticAgent::run() {
    if (!connect()) return 1;
    for (;;) {
        std::string error;
        if (relay_) relay_->accept();  // children's hellos, between requests
        auto request = leader_.receive(monotonic_now() + (relay_ ? 0.2 : 3600), &error);
        if (!request && error == "timed out") continue;
        if (!request) return error == "closed by the peer" ? 0 : 1;  // the bench ends us by closing
        if ((*request)["type"] == "sample") {
            ++sample_requests_;
            if (sample_requests_ == o_.die_on) _exit(9);  // killed before it could answer
            if (sample_requests_ == o_.stall_on) pause();  // silent until the bench kills it
            if (sample_requests_ == o_.bye_on) {  // the job ended on this node, as node_agent.cpp says it
                leader_.send({{"type", "bye"}, {"why", "the job ended on " + o_.node}}, monotonic_now() + 1.0);
                return 0;
            }
        }
        if (!leader_.send(serve(*request), monotonic_now() + 5.0).empty()) return 1;
        if (slots_) slots_[o_.index] = monotonic_now();
    }
}

bool parse(int argc, char** argv, Options* o) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i], value = argv[i + 1];
        if (key == "--port") o->port = std::atoi(value.c_str());
        else if (key == "--job") o->job = static_cast<uint32_t>(std::strtoul(value.c_str(), nullptr, 10));
        else if (key == "--node") o->node = value;
        else if (key == "--index") o->index = std::atoi(value.c_str());
        else if (key == "--first-rank") o->first_rank = std::atoi(value.c_str());
        else if (key == "--ranks") o->ranks = std::atoi(value.c_str());
        else if (key == "--slots") o->slots = value;
        else if (key == "--die-on-sample") o->die_on = std::atoi(value.c_str());
        else if (key == "--stall-on-sample") o->stall_on = std::atoi(value.c_str());
        else if (key == "--lie-on-sample") o->lie_on = std::atoi(value.c_str());
        else if (key == "--bye-on-sample") o->bye_on = std::atoi(value.c_str());
        else if (key == "--refuse-on-sample") o->refuse_on = std::atoi(value.c_str());
        else if (key == "--slow-from-sample") o->slow_from = std::atoi(value.c_str());
        else if (key == "--fan-in") o->fan_in = static_cast<unsigned>(std::atoi(value.c_str()));
        else if (key == "--agents") o->agents = std::atoi(value.c_str());
        else if (key == "--relay-ports") o->relay_ports = std::atoi(value.c_str());
        else return false;
    }
    return o->port > 0 && o->job > 0 && !o->node.empty() && o->ranks > 0 &&
           (o->fan_in == 0 || (o->agents > o->index && o->relay_ports > 0));
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, &o)) {
        std::cerr << "usage: leader_scale_agent --port P --job J --node NAME --index I --first-rank R [--ranks N]"
                     " [--slots FILE] [--die-on-sample K] [--stall-on-sample K] [--lie-on-sample K] [--bye-on-sample K]"
                     " [--refuse-on-sample K] [--slow-from-sample K] [--fan-in F --agents N --relay-ports B]\n";
        return 2;
    }
    return SyntheticAgent(std::move(o)).run();
}
