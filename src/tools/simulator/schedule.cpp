#include "tools/simulator/schedule.h"

#include <algorithm>
#include <stdexcept>

namespace jobsentry::sim {

std::uint64_t Schedule::messages() const {
    std::uint64_t n = 0;
    for (const Op& op : ops) n += op.kind() == OpKind::send;
    return n;
}

ScheduleBuilder::ScheduleBuilder(std::uint32_t num_ranks, std::uint64_t expected_ops) {
    s_.num_ranks = num_ranks;
    s_.ops.reserve(expected_ops);
    edges_.reserve(expected_ops);
}

std::uint32_t ScheduleBuilder::add(OpKind kind, std::uint32_t rank, std::int32_t peer, std::uint64_t size,
                                   std::int32_t tag) {
    if (s_.ops.size() >= 0x7fffffffu) throw std::length_error("schedule: more than 2^31 operations");
    s_.ops.push_back(Op{size, 0, peer, tag, rank, static_cast<std::uint32_t>(kind) << 30});
    if (!s_.placement.empty()) s_.placement.push_back(0);
    return static_cast<std::uint32_t>(s_.ops.size() - 1);
}

std::uint32_t ScheduleBuilder::send(std::uint32_t rank, std::uint32_t to, std::uint64_t bytes, std::int32_t tag) {
    return add(OpKind::send, rank, static_cast<std::int32_t>(to), bytes, tag);
}
std::uint32_t ScheduleBuilder::recv(std::uint32_t rank, std::int32_t from, std::uint64_t bytes, std::int32_t tag) {
    return add(OpKind::recv, rank, from, bytes, tag);
}
std::uint32_t ScheduleBuilder::calc(std::uint32_t rank, std::uint64_t ns) { return add(OpKind::calc, rank, 0, ns, 0); }

void ScheduleBuilder::place(std::uint32_t op, std::uint8_t cpu, std::uint8_t nic) {
    if (op >= s_.ops.size()) throw std::out_of_range("schedule: placement of an unknown operation");
    if (cpu == 0 && nic == 0 && s_.placement.empty()) return;
    if (s_.placement.empty()) s_.placement.assign(s_.ops.size(), 0);  // the first placed op
    s_.placement[op] = static_cast<std::uint16_t>(cpu | nic << 8);
    s_.cpus = std::max<std::uint32_t>(s_.cpus, cpu + 1u);
    s_.nics = std::max<std::uint32_t>(s_.nics, nic + 1u);
}

void ScheduleBuilder::edge(std::uint32_t later, std::uint32_t earlier, bool at_start) {
    Op& op = s_.ops.at(later);
    if (op.deps() == Op::kDepsMask) throw std::length_error("schedule: too many dependencies of one operation");
    if (earlier >= s_.ops.size()) throw std::out_of_range("schedule: dependency on an unknown operation");
    ++op.deps_kind;
    edges_.push_back((static_cast<std::uint64_t>(earlier | (at_start ? kStartEdge : 0)) << 32) | later);
}

Schedule ScheduleBuilder::finish() {
    // Counting sort of the edges by their earlier op: successor lists without
    // sorting 8-byte pairs of a 40 M-edge schedule. succ_begin[from] serves as
    // the fill cursor (ending at the next op's begin), then shifts back.
    const size_t n = s_.ops.size();
    s_.succ_begin.assign(n + 1, 0);
    for (std::uint64_t e : edges_) ++s_.succ_begin[((e >> 32) & ~kStartEdge) + 1];
    for (size_t i = 0; i < n; ++i) s_.succ_begin[i + 1] += s_.succ_begin[i];
    s_.succ.resize(edges_.size());
    for (std::uint64_t e : edges_) {
        std::uint32_t from = static_cast<std::uint32_t>(e >> 32);
        s_.succ[s_.succ_begin[from & ~kStartEdge]++] = static_cast<std::uint32_t>(e) | (from & kStartEdge);
    }
    for (size_t i = n; i > 0; --i) s_.succ_begin[i] = s_.succ_begin[i - 1];
    s_.succ_begin[0] = 0;
    edges_.clear();
    edges_.shrink_to_fit();
    return std::move(s_);
}

}  // namespace jobsentry::sim
