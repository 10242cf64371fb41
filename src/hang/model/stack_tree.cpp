#include "hang/model/stack_tree.h"

#include <sstream>

namespace jobsentry {
namespace {

void text_of(const StackTreeNode& node, int depth, std::ostringstream& out) {
    for (const auto& [label, child] : node.children) {
        out << std::string(2 * depth, ' ') << '[' << format_rank_set(child->ranks) << "] " << label << '\n';
        text_of(*child, depth + 1, out);
    }
}

nlohmann::json json_of(const StackTreeNode& node) {
    nlohmann::json children = nlohmann::json::array();
    for (const auto& [label, child] : node.children) children.push_back(json_of(*child));
    return {{"frame", node.label}, {"ranks", node.ranks}, {"children", children}};
}

}  // namespace

void StackTree::add(int rank, const std::vector<std::string>& labels) {
    StackTreeNode* node = &root_;
    node->ranks.insert(rank);
    for (auto it = labels.rbegin(); it != labels.rend(); ++it) {
        auto& child = node->children[*it];
        if (!child) {
            child = std::make_unique<StackTreeNode>();
            child->label = *it;
        }
        node = child.get();
        node->ranks.insert(rank);
    }
}

std::string StackTree::to_text() const {
    std::ostringstream out;
    text_of(root_, 0, out);
    return out.str();
}

nlohmann::json StackTree::to_json() const {
    nlohmann::json children = nlohmann::json::array();
    for (const auto& [label, child] : root_.children) children.push_back(json_of(*child));
    return children;
}

std::string format_rank_set(const std::set<int>& ranks) {
    std::ostringstream out;
    bool first = true;
    for (auto it = ranks.begin(); it != ranks.end();) {
        int start = *it, end = *it;
        auto next = std::next(it);
        while (next != ranks.end() && *next == end + 1) end = *next++;
        out << (first ? "" : ",") << start;
        if (end > start) out << '-' << end;
        first = false;
        it = next;
    }
    return out.str();
}

}  // namespace jobsentry
