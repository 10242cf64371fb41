// Reads the per-rank traces of the rmacheck preload module into plain
// structures. Pure: parse_trace works on bytes, so every malformed input is
// unit-tested; read_trace_dir adds the file system. A damaged file keeps the
// events before the damage and carries an error naming file and offset.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tools/rmacheck/analysis/name.h"
#include "tools/rmacheck/trace_format.h"

namespace rmacheck {

using trace::Range;

struct Event {
    trace::Rec type{};
    uint8_t kind = 0;  // RmaKind, SyncKind or CollKind
    uint64_t site = 0;  // return address of the MPI call, or the PC of a load/store
    uint32_t win = 0, comm = 0;
    int32_t target = -1;      // rma/sync: rank in the window's communicator
    int32_t lock_type = 0;    // lock: 1 exclusive, 0 shared
    int32_t peer = -1;        // send: dest, recv/req_done: source (communicator ranks); coll: root
    int32_t tag = 0;
    int64_t disp = 0;
    uint64_t request = 0;
    bool is_recv = false, write = false;
    uint64_t addr = 0;  // local access
    uint32_t size = 0;
    Name op, basic;         // rma: accumulate op; the target type's basic type ("" when it mixes several)
    uint32_t elem = 0;      // rma: size in bytes of that basic type (0: unknown)
    std::vector<Range> origin, result, target_bytes;  // rma: origin read, result written, target offsets
    std::vector<int32_t> group;                        // post/start: world ranks
    uint32_t thread = 0;  // kernel id of the thread that made it (0: the trace named none)
    uint64_t id = 0, id2 = 0;  // omp: a and b of the record (trace_format.h, OmpKind)
};

// What one thread of a rank did: MPI calls (every event but loads/stores) and loads/stores.
struct ThreadUse {
    size_t mpi_calls = 0, accesses = 0;
};

struct Module {
    uint64_t start = 0, end = 0, offset = 0;
    std::string path;
};

struct WinDesc {
    uint32_t comm = 0, ordinal = 0;
    uint64_t base = 0, size = 0;
    int32_t disp_unit = 1;
    uint8_t flavor = 0;  // 0 create, 1 allocate, 2 allocate_shared, 3 dynamic
    std::vector<Range> attached;
    uint8_t acc_ordering = trace::acc_all;  // trace::AccOrdering bits the program asked for
};

struct RankTrace {
    std::string file;
    int rank = -1, size = 0, pid = 0;
    uint32_t mode = 0;
    std::vector<Event> events;
    size_t rma_calls = 0;  // events of type rma
    std::vector<Module> modules;
    std::map<uint32_t, std::vector<int32_t>> comms;  // local id -> world ranks
    std::map<uint32_t, uint32_t> comm_generation;    // local id -> generation (absent: 0)
    std::map<uint32_t, WinDesc> wins;                // local id -> description
    std::vector<std::string> notes;
    uint64_t operations = 0, watched = 0;  // mode 1's sampling (a sampled record); equal: all watched
    std::map<uint32_t, ThreadUse> threads;  // by kernel thread id
    std::set<uint32_t> omp_threads;         // threads that recorded OpenMP synchronisation (OMPT)
    std::vector<uint32_t> thread_order;     // every thread in order of first appearance (thread 1, 2, ...)
    bool finalized = false;
    std::string error;  // non-empty: the file is damaged; events before the damage are kept
};

RankTrace parse_trace(const std::string& file, const std::string& bytes);

// All rank-*.jsrma files of dir, sorted by rank. Unreadable files come back
// with their error set (rank -1 when even the header is unusable).
std::vector<RankTrace> read_trace_dir(const std::string& dir, std::string* error);

}  // namespace rmacheck
