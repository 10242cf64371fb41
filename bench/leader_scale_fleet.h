// The agents of bench/leader_scale: N processes of leader_scale_agent, each
// a node of its own (n0001..nNNNN) with its ranks, started with posix_spawn
// (the leader's CPU time then holds no fork of a large process), and a shared
// file of one double per agent in which each writes when it last answered.
// Ends only the processes it started, by pid.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace jobsentry::bench {

struct FleetOptions {
    std::string agent_binary;
    int port = 0;
    uint32_t job = 0;
    int agents = 16;
    int ranks_per_node = 64;
    std::vector<int> die_on_sample;    // per agent: its sample request at which it exits unanswered (0: never)
    std::vector<int> stall_on_sample;  // per agent: at which it stops answering (0: never)
    std::vector<int> lie_on_sample;    // per agent: at which it answers for another node's rank too (0: never)
    std::vector<int> bye_on_sample;    // per agent: at which it says goodbye and ends (0: never)
    std::vector<int> refuse_on_sample; // per agent: at which it answers with an error (0: never)
    std::vector<int> slow_from_sample; // per agent: from which it is slow over its own ranks (0: never)
    unsigned fan_in = 0;               // > 0: a tree of agents (node_tree.h); relays listen on relay_ports + their node
    int relay_ports = 0;
};

class Fleet {
public:
    explicit Fleet(FleetOptions o);
    ~Fleet();
    Fleet(const Fleet&) = delete;
    Fleet& operator=(const Fleet&) = delete;

    // Starts every agent; "" or why not.
    std::string start();
    static std::string node_name(int index);  // 0 -> n0001
    // Forget every answer time, before a round.
    void clear_answers();
    // The latest answer time (CLOCK_MONOTONIC) of any agent since clear_answers(); 0 if none.
    double last_answer() const;
    // SIGKILL to agents still running, then reaps them all (at most a few seconds).
    void end();

private:
    FleetOptions o_;
    std::string slots_path_;
    double* slots_ = nullptr;
    std::vector<pid_t> pids_;
};

}  // namespace jobsentry::bench
