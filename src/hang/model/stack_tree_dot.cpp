#include "hang/model/stack_tree_dot.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace jobsentry {
namespace {

const char* const kMainFill = "#dbe9f6";
const char* const kOddFill = "#fdae6b";

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Length of the well-formed UTF-8 character at s[i], 0 if it is broken
// (Graphviz warns about and mis-draws broken UTF-8; symbol names are bytes).
size_t utf8_length(const std::string& s, size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 && c >= 0xC2 ? 2 : (c & 0xF0) == 0xE0 ? 3
                            : (c & 0xF8) == 0xF0 && c <= 0xF4 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k)
        if (!continuation(static_cast<unsigned char>(s[i + k]))) return 0;
    return n;
}

std::string valid_utf8(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size();) {
        size_t n = utf8_length(s, i);
        out += n ? s.substr(i, n) : "?";
        i += n ? n : 1;
    }
    return out;
}

std::string elide_middle(const std::string& s, size_t max_bytes) {
    const std::string dots = "...";
    if (s.size() <= max_bytes) return s;
    if (max_bytes <= dots.size()) return dots;
    size_t head = (max_bytes - dots.size()) / 2;
    size_t tail_start = s.size() - (max_bytes - dots.size() - head);
    while (head > 0 && continuation(static_cast<unsigned char>(s[head]))) --head;
    while (tail_start < s.size() && continuation(static_cast<unsigned char>(s[tail_start]))) ++tail_start;
    return s.substr(0, head) + dots + s.substr(tail_start);
}

std::string ranks_line(const std::set<int>& ranks) {
    return "[" + format_rank_set(ranks) + "] (" + std::to_string(ranks.size()) +
           (ranks.size() == 1 ? " rank)" : " ranks)");
}

struct DotWriter {
    std::ostringstream out;
    size_t total_ranks = 1;
    int next_id = 0;

    // Writes node's children and their subtrees; parent_id < 0 at the top.
    void children_of(const StackTreeNode& node, int parent_id, bool odd_above) {
        size_t largest = 0;
        for (const auto& [label, child] : node.children) largest = std::max(largest, child->ranks.size());
        for (const auto& [label, child] : node.children) {
            const bool odd = odd_above || child->ranks.size() < largest;
            const int id = next_id++;
            out << "  n" << id << " [label=\"" << dot_label_text(label) << "\\n"
                << dot_label_text(ranks_line(child->ranks)) << "\"" << (odd ? std::string(", fillcolor=\"") + kOddFill + "\"" : "")
                << "];\n";
            if (parent_id >= 0) {
                const double width = 1.0 + 4.0 * static_cast<double>(child->ranks.size()) / static_cast<double>(total_ranks);
                out << "  n" << parent_id << " -> n" << id << " [label=\"" << child->ranks.size() << "\", penwidth="
                    << std::fixed << std::setprecision(1) << width << "];\n";
            }
            children_of(*child, id, odd);
        }
    }
};

}  // namespace

std::string dot_label_text(const std::string& text, size_t max_bytes) {
    std::string out;
    for (char c : elide_middle(valid_utf8(text), max_bytes)) {
        if (c == '"' || c == '\\') out += {'\\', c};
        else if (c == '\n') out += "\\n";
        else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += '?';
        else out += c;
    }
    return out;
}

std::string stack_tree_dot(const StackTree& tree) {
    DotWriter w;
    w.total_ranks = std::max<size_t>(1, tree.root().ranks.size());
    w.out << "digraph stack_tree {\n"
          << "  graph [labelloc=t, fontname=\"Helvetica\", label=\"jobsentry: merged stacks, outermost frame on top; "
             "orange: a branch with fewer ranks than its largest sibling\"];\n"
          << "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fillcolor=\"" << kMainFill << "\"];\n"
          << "  edge [fontname=\"Helvetica\", fontsize=10];\n";
    w.children_of(tree.root(), -1, false);
    w.out << "}\n";
    return w.out.str();
}

}  // namespace jobsentry
