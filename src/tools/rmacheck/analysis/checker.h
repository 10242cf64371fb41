// Conflicting concurrent accesses, per the compatibility tables of
// MC-Checker (Chen et al., SC'14 slides 15-16):
//  - within an epoch, at the origin: an operation's origin/result buffer
//    against later loads, stores and operations of the same process before the
//    operation completes locally (table "within an epoch");
//  - across processes, on window memory: operations (and, in precise mode,
//    loads/stores at the target) that are not ordered by happens-before, with
//    lock epochs on the same target excluding each other when one is
//    exclusive (table "across processes"). Accumulate-family operations
//    (accumulate, get_accumulate, fetch_and_op, compare_and_swap) are atomic
//    with each other per element only with the same op (or MPI_NO_OP on one
//    side) on identically aligned elements of one basic type; with MPI_NO_OP
//    an operation only reads, and against puts, gets and loads/stores it
//    conflicts like a get. One origin's accumulates of one basic type are
//    ordered by the window's accumulate_ordering; of two basic types they
//    race like any others.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/rmacheck/analysis/happens_before.h"

namespace rmacheck {

enum class AccessKind { load, store, get, put, acc };
const char* to_string(AccessKind k);

enum class Compat { both, novl, never };  // BOTH, NOVL, X of the tables
Compat within_epoch(AccessKind first, AccessKind second);
Compat across_processes(AccessKind a, AccessKind b);

struct Side {
    AccessKind kind{};
    int rank = -1;       // world rank that performed it
    uint64_t site = 0;   // return address of the MPI call, or PC of the load/store
    bool is_pc = false;  // site is an instruction address (load/store), not a return address
    Name op;             // accumulate operation, if any (MPI_CAS for compare-and-swap)
    Name basic;          // RMA operation: the target datatype's basic type ("" when it mixes several)
    int thread = 0;      // the thread of its rank (Execution::thread_number), 0: threads not told apart
};

struct Finding {
    bool remote = true;  // across processes on window memory; false: an origin buffer within an epoch
    Side a, b;
    int win = 0;          // job-wide window number
    int target_rank = -1; // whose memory
    Range bytes;          // window offsets (remote) or addresses (local)
    size_t occurrences = 1;
    std::string why;      // two accumulates: why they are not atomic together ("different operations", ...)
};

// One accumulate-family operation: op name (MPI_NO_OP: a read; MPI_CAS), basic type and its size.
struct AtomicOp {
    Name op, basic;
    uint32_t elem = 0;
};
// The reasons that name the basic types (Finding::why), and why two accumulate-family operations are
// not of one and the same basic type (a reason above), or nullptr when they are. Accumulates with
// different basic types are neither atomic together (MPI-3.1 section 11.7.1) nor ordered when they
// come from one origin (11.7.2: ordering is "on a per-datatype granularity").
inline constexpr const char* kDifferentBasicTypes = "different basic types";
inline constexpr const char* kNotOneBasicType = "not one basic type";
const char* basic_type_conflict(const AtomicOp& a, const AtomicOp& b);
// Why two concurrent accumulate-family operations whose target bytes (sorted window offsets) overlap
// are not atomic together, or nullptr when they are: the same op or MPI_NO_OP on one side, the same
// basic type, and every overlapping element identically aligned (MPI-3.1 section 11.7.1).
const char* accumulate_conflict(const AtomicOp& a, const AtomicOp& b, const std::vector<Range>& a_bytes,
                                const std::vector<Range>& b_bytes);

std::vector<Finding> find_races(const Execution& exec);

}  // namespace rmacheck
