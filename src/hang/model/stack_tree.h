// Stacks of many ranks merged into a prefix tree, outermost frame at the root,
// each node carrying the set of ranks whose stacks pass through it (the way
// LLNL STAT shows a hang: the odd rank is a small branch of its own).
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace jobsentry {

struct StackTreeNode {
    std::string label;
    std::set<int> ranks;
    std::map<std::string, std::unique_ptr<StackTreeNode>> children;
};

class StackTree {
public:
    // labels: innermost first, as the stack walker returns them.
    void add(int rank, const std::vector<std::string>& labels_innermost_first);
    const StackTreeNode& root() const { return root_; }

    // One line per node, indented by depth: "[0-2,5] PMPI_Allreduce".
    std::string to_text() const;
    nlohmann::json to_json() const;

private:
    StackTreeNode root_;
};

// "0-3,5,7-8" for {0,1,2,3,5,7,8}.
std::string format_rank_set(const std::set<int>& ranks);

}  // namespace jobsentry
