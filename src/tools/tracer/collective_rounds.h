// The messages one member of a collective sends and receives, in rounds: the
// algorithms trace-to-goal expands a traced collective into (docs/simulator.md).
// A round's messages may all be in flight together; a round starts when the
// previous one completed. Positions are 0..p-1 in the communicator.
//   barrier    dissemination: round k sends to i+2^k, receives from i-2^k (1 byte)
//   bcast      binomial tree from the root (the project's binomial bcast)
//   reduce     binomial tree towards the root (receives from the children, then sends)
//   allreduce  recursive doubling (a power of two: log2 p exchange rounds; otherwise the first 2r
//              ranks, r = p - 2^floor(log2 p), pair up first and the even one of each pair gets
//              the result back at the end, as MPICH and Open MPI do it), or (reduce_bcast)
//              binomial reduce to position 0, then binomial bcast from it, or (rabenseifner) the
//              same pairs exchanging halves: a reduce-scatter by recursive halving, then an
//              allgather by recursive doubling, or (by_size) recursive doubling up to
//              kShortAllreduce bytes and Rabenseifner above: MPICH's classic choice
//              (MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE)
//   gather     linear: every member sends to the root; scatter: the root sends to each
//   allgather  ring: p-1 rounds, send to i+1 and receive from i-1
//   alltoall   pairwise: round s sends to i+s and receives from i-s
#pragma once

#include <cstdint>
#include <vector>

#include "tools/tracer/trace_records.h"

namespace jobtrace {

struct Message {
    bool send;
    std::uint32_t peer;  // position in the communicator
    std::uint64_t bytes;
};
using Round = std::vector<Message>;

enum class Allreduce { recursive_doubling, reduce_bcast, rabenseifner, by_size };
constexpr std::uint64_t kShortAllreduce = 2048;

// kind: one of the collective kinds of trace_records.h; root: a position (ignored by rootless kinds).
std::vector<Round> collective_rounds(Kind kind, std::uint32_t p, std::uint32_t me, std::uint32_t root,
                                     std::uint64_t bytes, Allreduce allreduce = Allreduce::recursive_doubling);

bool is_collective(Kind kind);
const char* kind_name(Kind kind);

}  // namespace jobtrace
