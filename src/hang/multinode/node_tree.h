// The tree the nodes of a multi-node job form (docs/multi-node.md, "A tree of agents"): the leader
// is node 0, the job's first node; the children of node p are nodes p*F+1 .. p*F+F of the job's
// node list, F the fan-in. Leader and agents compute it alike from the node list slurmctld gives
// them, so nobody has to tell anybody where to connect. With F at least the job's other nodes it is
// the star (every agent connects to the leader). A node with children relays: it takes its
// children's connections, forwards its parent's requests for their ranks, and answers for its whole
// subtree in one reply, so that no process takes more than F connections and replies. Pure.
#pragma once

#include <cstddef>
#include <vector>

namespace jobsentry {

class NodeTree {
public:
    // The fan-in a site gets unless it says otherwise (plugstack.conf agent_fan_in): 32 connections
    // and replies per process, a star up to 33 nodes, 3 levels of agents at 10,000
    // (docs/benchmarks.md, "Modelled at 1,000 and 10,000 nodes").
    static constexpr unsigned kDefaultFanIn = 32;
    static constexpr unsigned kMaxFanIn = 4096;

    NodeTree(size_t nodes, unsigned fan_in);
    size_t size() const { return nodes_; }
    unsigned fan_in() const { return fan_in_; }
    // Node i's parent (i >= 1).
    size_t parent(size_t i) const { return (i - 1) / fan_in_; }
    std::vector<size_t> children(size_t i) const;
    // Every node below i (not i itself), in order.
    std::vector<size_t> below(size_t i) const;
    // The child of `from` whose subtree holds `to` (to below from).
    size_t child_toward(size_t from, size_t to) const;
    // Levels of agents below node i: 0 for a leaf, 1 for a star's leader.
    unsigned height(size_t i) const;
    // Node i's depth: 0 for the leader.
    unsigned depth(size_t i) const;

private:
    size_t nodes_;
    unsigned fan_in_;
};

// How long a hub waits for its children's replies: 2 s when they are leaves (the star's bound, in
// which an agent samples at most its node's ranks), 1 s more per level of relays below, so that a
// relay whose own child is silent still answers its parent in time, naming that child's ranks
// unreachable, and the loss stays where it is.
double reply_seconds_for_height(unsigned height);

}  // namespace jobsentry
