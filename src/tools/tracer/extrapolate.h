// `trace-to-goal --scale P'`: the traces of the P traced ranks carried to P'
// ranks, for the regular patterns that allow it (docs/simulator.md,
// "Extrapolation"). Two rules:
//
//   offsets    (default) each rank's partners are kept as offsets from it. If
//              every rank has the same calls with the same offsets modulo P,
//              the pattern is a ring: rank r' of P' behaves as traced rank
//              r' mod P with partners (r' + offset) mod P'. Otherwise it must
//              be a 1-D chain: the ranks around the middle share one pattern
//              (the interior), the ranks before and after them are the ends;
//              the ends are kept at both ends of P' and the interior is
//              repeated in between (traced interior ranks taken in turn, so
//              their measured compute times stay mixed).
//   replicate  LogGOPSim's schedgen (--traces-extr k): P' = k P; copy e of
//              traced rank r is rank r + e P and talks point-to-point only to
//              its own copy's ranks; collectives span all P'.
//
// Both assume weak scaling: each rank keeps its traced compute times and
// message sizes. Collectives run over all P' ranks, so only collectives on
// MPI_COMM_WORLD (or a communicator of the same members) can be carried. The
// result is checked: every message sent at P' must meet a receive with the
// same source, destination and tag, so a pattern that is not a ring or a chain
// (a 2-D decomposition, data-dependent partners) is refused with where it
// broke, never converted into a schedule that deadlocks or means nothing. Pure.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/tracer/trace_reader.h"

namespace jobtrace {

enum class ScaleRule { offsets, replicate };

class ExtrapolationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Extrapolation {
public:
    // traces: every rank 0..P-1 of the traced job, by rank. Throws ExtrapolationError with the
    // reason when the pattern cannot be carried to `target` ranks.
    Extrapolation(const std::vector<RankTrace>& traces, std::uint32_t target, ScaleRule rule);

    std::uint32_t size() const { return target_; }
    RankTrace rank(std::uint32_t r) const;  // rank r of the P' ranks, made on demand
    std::uint64_t records() const;         // of all P' ranks together
    // How ranks were mapped, for the GOAL's comment: e.g. "a ring: rank r behaves as traced rank r mod 4".
    const std::string& how() const { return how_; }

private:
    std::uint32_t template_of(std::uint32_t r) const;
    std::int32_t root(std::int32_t traced_root) const;
    std::int32_t partner(std::int32_t traced_peer, std::uint32_t traced_rank, std::uint32_t r) const;
    void check_messages_match() const;

    const std::vector<RankTrace>& traces_;
    std::uint32_t traced_, target_;
    ScaleRule rule_;
    bool ring_ = false;
    std::uint32_t head_ = 0, tail_ = 0;  // chain: ranks kept at the start and at the end
    std::string how_;
};

}  // namespace jobtrace
