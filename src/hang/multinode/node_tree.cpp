#include "hang/multinode/node_tree.h"

#include <algorithm>

namespace jobsentry {

NodeTree::NodeTree(size_t nodes, unsigned fan_in) : nodes_(nodes), fan_in_(std::clamp(fan_in, 1u, kMaxFanIn)) {}

std::vector<size_t> NodeTree::children(size_t i) const {
    std::vector<size_t> out;
    for (size_t c = i * fan_in_ + 1; c <= i * fan_in_ + fan_in_ && c < nodes_; ++c) out.push_back(c);
    return out;
}

std::vector<size_t> NodeTree::below(size_t i) const {
    // Breadth first: the nodes of each level below i form one contiguous range.
    std::vector<size_t> out;
    size_t first = i, last = i;  // the current level's range
    while (first * fan_in_ + 1 < nodes_) {
        first = first * fan_in_ + 1;
        last = std::min(last * fan_in_ + fan_in_, nodes_ - 1);
        for (size_t n = first; n <= last; ++n) out.push_back(n);
        if (last == nodes_ - 1) break;
    }
    return out;
}

size_t NodeTree::child_toward(size_t from, size_t to) const {
    while (to != 0 && parent(to) != from) to = parent(to);
    return to;
}

unsigned NodeTree::height(size_t i) const {
    unsigned h = 0;
    for (size_t first = i; first * fan_in_ + 1 < nodes_; first = first * fan_in_ + 1) ++h;
    return h;
}

unsigned NodeTree::depth(size_t i) const {
    unsigned d = 0;
    for (; i != 0; i = parent(i)) ++d;
    return d;
}

double reply_seconds_for_height(unsigned height) { return 2.0 + (height > 1 ? height - 1 : 0); }

}  // namespace jobsentry
