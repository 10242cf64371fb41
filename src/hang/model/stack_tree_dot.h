// The merged stack tree as a Graphviz DOT graph, for people who want to see
// a hang the way LLNL STAT draws it: one box per frame with the ranks that
// share it, edges as wide as the ranks they carry, and the odd small branch
// (where the suspects usually are) in a colour of its own. Pure: text only.
#pragma once

#include <string>

#include "hang/model/stack_tree.h"

namespace jobsentry {

// A digraph: one node per tree node (the unlabelled root is left out),
// labelled "function\n[ranks] (N ranks)", edges parent -> child labelled with
// the child's rank count, penwidth 1..5 by its share of all ranks. A node is
// filled orange when it, or one of its ancestors, has fewer ranks than its
// largest sibling (a minority branch); the others are light blue.
std::string stack_tree_dot(const StackTree& tree);

// text as the inside of a DOT "..." string: " and \ escaped, a newline as
// DOT's \n line break, other control bytes and broken UTF-8 as '?', and at
// most max_bytes long (the middle elided with "...", never inside a UTF-8
// character).
std::string dot_label_text(const std::string& text, size_t max_bytes = 120);

}  // namespace jobsentry
