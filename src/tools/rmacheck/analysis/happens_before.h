// Happens-before over all ranks' traces, computed offline with vector clocks:
// collectives matched by per-communicator sequence (communicators named by
// their members' world ranks), point-to-point messages matched in order per
// (communicator, source, destination, tag) with wildcard receives resolved from
// the recorded status, nonblocking collectives ordering their completion after
// the other members' calls, fences as window-wide collectives, and post->start,
// complete->wait edges of PSCW epochs. Lock/unlock add no edges: they complete
// operations and exclude each other, they do not order processes.
// Clock components are lanes: one per rank, or one per thread of a rank whose
// threads are ordered by OpenMP synchronisation (threads.h, ompt_ordered); then
// a thread's events are in program order and OpenMP adds edges between threads
// (fork, barriers, mutexes, task creation and completion), while an MPI event's
// edges to other ranks belong to the thread that made it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tools/rmacheck/analysis/trace_reader.h"

namespace rmacheck {

struct EventRef {
    int slot = 0;        // index into the traces vector
    size_t index = 0;    // index into its events
};

class Execution {
public:
    explicit Execution(const std::vector<RankTrace>& traces);

    const std::vector<RankTrace>& traces() const { return traces_; }
    // a happens before b (a == b counts as before).
    bool before(EventRef a, EventRef b) const;
    // World rank of `rank` in the trace's communicator/window; -1 when unknown.
    int world_of_comm_rank(int slot, uint32_t comm, int rank) const;
    int world_of_win_rank(int slot, uint32_t win, int rank) const;
    // Job-wide window number (1, 2, ... in order of creation) of a rank's local window id.
    int window_number(int slot, uint32_t win) const;
    // Which thread of its rank made the event (1: the first thread in the trace), or 0 when the
    // rank's threads are not ordered apart (one lane).
    int thread_number(EventRef e) const;
    // The trace slot holding a world rank, or -1.
    int slot_of_world(int world) const;
    const std::vector<std::string>& warnings() const { return warnings_; }

private:
    void match();
    void order_nonblocking(const std::vector<EventRef>& parts, trace::CollKind kind, int root_slot,
                           const std::vector<std::map<uint64_t, size_t>>& done_at);
    void make_lanes();
    void order_threads(int slot);
    void compute_clocks();
    int lane(EventRef e) const { return lane_of_[e.slot][e.index]; }
    size_t pos(EventRef e) const { return pos_[e.slot][e.index]; }

    const std::vector<RankTrace>& traces_;
    std::map<int, int> slot_of_world_;
    std::vector<std::map<uint32_t, int>> win_number_;  // per slot: local id -> job-wide number
    std::vector<std::vector<std::vector<EventRef>>> deps_;  // per slot, per event: events joined into it
    std::vector<std::vector<int>> group_;                   // per slot, per event: all-to-all group or -1
    std::vector<std::vector<EventRef>> groups_;
    // Vector clocks, shared: an event's clock differs from the one before it in its lane only in its own
    // lane's component (always pos + 1, so not stored) unless it has dependencies or a group; such events
    // share their predecessor's stored clock. clock_id_: per slot, per event, which stored clock (times
    // the lane count: its offset in clocks_); clock 0 is all zeros. A stored clock's own-lane component is
    // stale; every other component is exact.
    std::vector<std::vector<uint32_t>> clock_id_;
    std::vector<uint32_t> clocks_;
    std::vector<std::vector<int>> lane_of_;                  // per slot, per event: its lane
    std::vector<std::vector<size_t>> pos_;                   // per slot, per event: its place in the lane
    std::vector<std::vector<EventRef>> lanes_;               // per lane: its events in order
    std::vector<std::map<uint32_t, int>> thread_number_;     // per slot with lanes per thread: tid -> 1, 2, ...
    std::vector<std::string> warnings_;
};

}  // namespace rmacheck
