// Conflicting concurrent accesses, per the compatibility tables of
// MC-Checker (Chen et al., SC'14 slides 15-16):
//  - within an epoch, at the origin: an operation's origin/result buffer
//    against later loads, stores and operations of the same process before the
//    operation completes locally (table "within an epoch");
//  - across processes, on window memory: operations (and, in precise mode,
//    loads/stores at the target) that are not ordered by happens-before, with
//    lock epochs on the same target excluding each other when one is
//    exclusive (table "across processes"; concurrent accumulates are legal
//    only with the same operation, or MPI_NO_OP, and the same basic type).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "happens_before.h"

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
    std::string op;      // accumulate operation, if any
};

struct Finding {
    bool remote = true;  // across processes on window memory; false: an origin buffer within an epoch
    Side a, b;
    int win = 0;          // job-wide window number
    int target_rank = -1; // whose memory
    Range bytes;          // window offsets (remote) or addresses (local)
    size_t occurrences = 1;
};

std::vector<Finding> find_races(const Execution& exec);

}  // namespace rmacheck
