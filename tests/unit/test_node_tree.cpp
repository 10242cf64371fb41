// The tree of agents (node_tree.h) and what a relay may say on the wire (wire.h): every node but the
// leader has one parent, subtrees partition the nodes, no process takes more than F connections,
// and a relay speaks only for the nodes below it.
#include "catch_compat.hpp"

#include <set>

#include "hang/multinode/node_tree.h"
#include "hang/multinode/wire.h"

using namespace jobsentry;

TEST_CASE("the tree of agents: a star up to F+1 nodes, every node under exactly one child of each ancestor") {
    const NodeTree star(33, 32);
    CHECK(star.children(0).size() == 32);
    CHECK(star.height(0) == 1);
    for (size_t i = 1; i < 33; ++i) {
        CHECK(star.parent(i) == 0);
        CHECK(star.children(i).empty());
        CHECK(star.below(i).empty());
    }
    for (size_t nodes : {2, 3, 34, 100, 1057, 10000}) {
        for (unsigned fan_in : {1u, 2u, 3u, 32u}) {
            if (fan_in == 1 && nodes > 100) continue;  // a chain: quadratic to check, and nobody's choice
            const NodeTree tree(nodes, fan_in);
            CHECK(tree.below(0).size() == nodes - 1);
            size_t most_children = 0;
            for (size_t i = 0; i < nodes; ++i) {
                const auto children = tree.children(i);
                most_children = std::max(most_children, children.size());
                // below(i) is exactly the union of the children's subtrees and the children themselves.
                std::set<size_t> from_children;
                for (size_t c : children) {
                    CHECK(tree.parent(c) == i);
                    from_children.insert(c);
                    for (size_t n : tree.below(c)) CHECK(from_children.insert(n).second);  // disjoint
                }
                const auto below = tree.below(i);
                CHECK(std::set<size_t>(below.begin(), below.end()) == from_children);
                for (size_t n : below) CHECK(tree.parent(tree.child_toward(i, n)) == i);
                if (i > 0) CHECK(tree.depth(i) == tree.depth(tree.parent(i)) + 1);
            }
            CHECK(most_children <= fan_in);
        }
    }
    CHECK(NodeTree(10000, 32).height(0) == 3);  // 1 + 32 + 1024 + 8943: three levels of agents
    CHECK(NodeTree(10000, 32).height(1) == 2);
    CHECK(NodeTree(3, 1).height(0) == 2);       // the chain n1 -> n2 -> n3 of the Slurm test
    CHECK(NodeTree(3, 1).child_toward(0, 2) == 1);
}

TEST_CASE("a hub waits longer the more levels of relays are below it, so that a loss stays where it is") {
    CHECK(reply_seconds_for_height(1) == 2.0);  // a star's leader, a relay of leaves: as before
    CHECK(reply_seconds_for_height(2) == 3.0);
    CHECK(reply_seconds_for_height(3) == 4.0);
}

TEST_CASE("a relay's rank list may name the nodes below it, and no other") {
    std::string error;
    const std::set<std::string> below{"n5", "n6"};
    auto ranks = wire::ranks_from_json(
        nlohmann::json::parse(R"([{"rank":0,"pid":10,"start":5},{"rank":1,"pid":11,"start":5,"node":"n5"}])"), "n2",
        &error, below);
    REQUIRE(ranks);
    CHECK(ranks->at(0).node == "n2");
    CHECK(ranks->at(1).node == "n5");
    CHECK_FALSE(wire::ranks_from_json(nlohmann::json::parse(R"([{"rank":1,"pid":11,"start":5,"node":"n7"}])"), "n2",
                                      &error, below));
    CHECK(error == "a rank of node n7, which is not n2 or below it");
    // A leaf may not name nodes at all but its own.
    CHECK_FALSE(wire::ranks_from_json(nlohmann::json::parse(R"([{"rank":1,"pid":11,"start":5,"node":"n5"}])"), "n2", &error));
    CHECK(error == "a rank of node n5, which is not n2");
    CHECK_FALSE(wire::ranks_from_json(nlohmann::json::parse(R"([{"rank":1,"pid":11,"start":5,"node":7}])"), "n2",
                                      &error, below));
    // The bound grows with the nodes spoken for: 4096 per node.
    nlohmann::json many = nlohmann::json::array();
    for (int r = 0; r < 4097; ++r) many.push_back({{"rank", r}, {"pid", 100 + r}, {"start", 1}, {"node", "n5"}});
    CHECK(wire::ranks_from_json(many, "n2", &error, below));
    CHECK_FALSE(wire::ranks_from_json(many, "n2", &error));
    CHECK(wire::max_message_bytes_for(1) == wire::kMaxMessageBytes);
    CHECK(wire::max_message_bytes_for(3) == 3 * wire::kMaxMessageBytes);
    CHECK(wire::max_message_bytes_for(100000) == 1u << 31);
    // Round trip: a relay's list names each rank's node.
    auto back = wire::ranks_from_json(wire::ranks_json(*ranks, true), "n2", &error, below);
    REQUIRE(back);
    CHECK(back->at(1).node == "n5");
}

TEST_CASE("a relay's per-node maps are of nodes below it, each value checked") {
    const std::set<std::string> below{"n5", "n6"};
    std::map<std::string, std::string> taken;
    auto take = [&](const std::string& node, const nlohmann::json& v) {
        if (!v.is_string()) return std::string("not text");
        taken[node] = v.get<std::string>();
        return std::string();
    };
    CHECK(wire::node_map_from_json(nlohmann::json::parse(R"({"n5":"lost"})"), below, take).empty());
    CHECK(taken["n5"] == "lost");
    CHECK(wire::node_map_from_json(nlohmann::json::parse(R"({"n9":"lost"})"), below, take) ==
          "a per-node entry for n9, which is not below it");
    CHECK(wire::node_map_from_json(nlohmann::json::parse(R"({"n6":3})"), below, take) == "not text");
    CHECK(wire::node_map_from_json(nlohmann::json::parse(R"(["n5"])"), below, take) ==
          "a per-node map that is not an object of at most 2 nodes");
    CHECK(wire::node_map_from_json(nlohmann::json::parse(R"({"n5":"a","n6":"b","n7":"c"})"), below, take) ==
          "a per-node map that is not an object of at most 2 nodes");
}
