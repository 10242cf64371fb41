// A communication schedule: per-rank operations (send, recv, calc) and the
// dependencies between them (requires: after the other op completes;
// irequires: after it starts), as in the GOAL format. Stored compactly (32
// bytes per op, successor lists in one array) so that 1 M ranks fit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/simulator/huge_pages.h"

namespace jobsentry::sim {

enum class OpKind : std::uint8_t { send = 0, recv = 1, calc = 2 };

constexpr std::int32_t kAnySource = -1;
constexpr std::int32_t kAnyTag = -1;  // a receive with this tag takes any tag (GOAL's `tag -1`)

struct Op {
    std::uint64_t size;        // bytes (send, recv) or nanoseconds (calc)
    std::uint64_t ready_at;    // engine state: latest time a dependency was satisfied
    std::int32_t peer;         // destination (send), source or kAnySource (recv)
    std::int32_t tag;
    std::uint32_t rank;
    std::uint32_t deps_kind;   // bits 30..31: OpKind; bits 0..29: unsatisfied dependencies

    OpKind kind() const { return static_cast<OpKind>(deps_kind >> 30); }
    std::uint32_t deps() const { return deps_kind & kDepsMask; }
    static constexpr std::uint32_t kDepsMask = (1u << 30) - 1;
};
static_assert(sizeof(Op) == 32, "Op is meant to stay 32 bytes");

// Successor entries carry this bit when the dependency is an irequires.
constexpr std::uint32_t kStartEdge = 1u << 31;
// An op index that names no op: "no previous op" while a pattern is built.
constexpr std::uint32_t kNoOp = 0xffffffffu;

struct Schedule {
    std::uint32_t num_ranks = 0;
    BigVector<Op> ops;
    BigVector<std::uint32_t> succ_begin;  // ops.size() + 1 offsets into succ
    BigVector<std::uint32_t> succ;        // op index, | kStartEdge for irequires
    // GOAL's `cpu N` / `nic N`: which of a rank's CPUs and NICs an op uses.
    // Empty while every op uses CPU 0 and NIC 0; else cpu | nic << 8 per op.
    BigVector<std::uint16_t> placement;
    std::uint32_t cpus = 1, nics = 1;     // per rank: the highest index used + 1

    std::uint64_t messages() const;
    std::uint32_t cpu(std::uint32_t op) const { return placement.empty() ? 0 : placement[op] & 0xffu; }
    std::uint32_t nic(std::uint32_t op) const { return placement.empty() ? 0 : placement[op] >> 8; }
};

// Builds a Schedule: ops are added in any order, each with the ops it depends
// on; finish() turns the predecessor lists into successor lists.
class ScheduleBuilder {
public:
    explicit ScheduleBuilder(std::uint32_t num_ranks, std::uint64_t expected_ops = 0);
    std::uint32_t send(std::uint32_t rank, std::uint32_t to, std::uint64_t bytes, std::int32_t tag);
    std::uint32_t recv(std::uint32_t rank, std::int32_t from, std::uint64_t bytes, std::int32_t tag);
    std::uint32_t calc(std::uint32_t rank, std::uint64_t ns);
    // Runs `op` on the rank's CPU `cpu` and NIC `nic` (0 unless placed).
    void place(std::uint32_t op, std::uint8_t cpu, std::uint8_t nic);
    // `later` may start only after `earlier` completes (requires) or starts (irequires).
    void after_end(std::uint32_t later, std::uint32_t earlier) { edge(later, earlier, false); }
    void after_start(std::uint32_t later, std::uint32_t earlier) { edge(later, earlier, true); }
    Schedule finish();

private:
    std::uint32_t add(OpKind kind, std::uint32_t rank, std::int32_t peer, std::uint64_t size, std::int32_t tag);
    void edge(std::uint32_t later, std::uint32_t earlier, bool at_start);
    Schedule s_;
    BigVector<std::uint64_t> edges_;  // (earlier | flag) << 32 | later
};

}  // namespace jobsentry::sim
