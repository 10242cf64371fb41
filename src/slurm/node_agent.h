// `jobsentry agent`: the node agent of a multi-node job (docs/multi-node.md),
// started by jobsentry.so as root in the job's extern step on every node but
// the first. It finds the job's ranks on its node (the node's job cgroup,
// the job user's processes only, as the supervisor does), connects to the
// leader on the job's first node (in a job of more nodes than the fan-in, its
// parent in the tree of agents, node_tree.h, which relays), authenticates with
// munge, and answers the leader's requests: the ranks it has, and samples of some of them (compact
// digests, or full stacks when asked). It takes no decision and no action.
// Ends with the job on its node or on SIGTERM; a lost leader is looked for
// again, never fatal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hang/multinode/node_tree.h"
#include "slurm/plugin/policy.h"

namespace jobsentry {

struct AgentOptions {
    uint32_t job_id = 0;
    unsigned node_index = 0;  // the node's place in the job's node list (>= 1)
    PortRange leader_ports;
    unsigned fan_in = NodeTree::kDefaultFanIn;  // the tree of agents (node_tree.h): whom to connect to, whom to take
    std::string pid_file;     // the plugin's record, removed at exit when it names us
    std::string cgroup_root = "/sys/fs/cgroup";
};

struct AgentParse {
    AgentOptions options;
    bool help = false;
    std::string error;
};

AgentParse parse_agent_options(const std::vector<std::string>& args);
std::string agent_help();

// Exit status: 0 at the job's end, 1 when the job cannot be served.
int run_node_agent(const AgentOptions& options);

}  // namespace jobsentry
