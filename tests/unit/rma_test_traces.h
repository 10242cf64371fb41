// Hand-built traces for the RMA checker's unit tests: a job of ranks with one window, and
// the events the preload module would record (rmacheck/analysis/trace_reader.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tools/rmacheck/analysis/checker.h"

namespace rmacheck::test {

using trace::Rec;
using trace::RmaKind;
using trace::SyncKind;

// A job of n ranks on MPI_COMM_WORLD with one window of 64 bytes per rank (disp_unit 4).
inline std::vector<RankTrace> job(int n) {
    std::vector<RankTrace> t(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
        auto& x = t[static_cast<size_t>(r)];
        x.rank = r, x.size = n;
        for (int k = 0; k < n; ++k) x.comms[1].push_back(k);
        x.wins[1] = WinDesc{1, 0, 0x10000u + 0x1000u * static_cast<uint64_t>(r), 64, 4, 0, {}, rmacheck::trace::acc_all};
    }
    return t;
}
inline Event rma(RmaKind k, int target, int64_t disp, uint64_t site, std::string op = "") {
    Event e;
    e.type = Rec::rma, e.kind = static_cast<uint8_t>(k), e.win = 1, e.target = target, e.disp = disp;
    e.site = site, e.op = std::move(op), e.basic = "MPI_INT", e.elem = 4;
    e.target_bytes = {{0, 4}};
    if (k == RmaKind::get)
        e.result = {{0x9000, 0x9004}};
    else
        e.origin = {{0x9000, 0x9004}};
    return e;
}
inline Event sync(SyncKind k, int target = -1, int lock_type = 0) {
    Event e;
    e.type = Rec::sync, e.kind = static_cast<uint8_t>(k), e.win = 1, e.target = target, e.lock_type = lock_type;
    return e;
}
inline Event barrier() {
    Event e;
    e.type = Rec::coll, e.comm = 1, e.kind = static_cast<uint8_t>(trace::CollKind::all);
    return e;
}
inline Event send(int dest, int tag) {
    Event e;
    e.type = Rec::send, e.comm = 1, e.peer = dest, e.tag = tag;
    return e;
}
inline Event recv(int source, int tag) {
    Event e;
    e.type = Rec::recv, e.comm = 1, e.peer = source, e.tag = tag, e.is_recv = true;
    return e;
}
inline Event local(uint64_t addr, bool write, uint64_t pc) {
    Event e;
    e.type = Rec::local, e.addr = addr, e.size = 4, e.write = write, e.site = pc;
    return e;
}
inline std::vector<Event> locked(RmaKind k, int target, int64_t disp, uint64_t site, int lock_type = 0,
                                 std::string op = "") {
    return {sync(SyncKind::lock, target, lock_type), rma(k, target, disp, site, std::move(op)),
            sync(SyncKind::unlock, target)};
}
inline void add(RankTrace& t, const std::vector<Event>& events) { t.events.insert(t.events.end(), events.begin(), events.end()); }
inline std::vector<Finding> races(const std::vector<RankTrace>& t) { return find_races(Execution(t)); }

// An accumulate-family operation under a shared lock on rank 1's window: op, basic type and size, and
// its target bytes relative to the displacement (disp_unit 4).
inline std::vector<Event> atomic_op(RmaKind k, int64_t disp, uint64_t site, const std::string& op,
                                    const std::string& basic = "MPI_INT", uint32_t elem = 4,
                                    std::vector<Range> bytes = {{0, 4}}) {
    auto ev = locked(k, 1, disp, site, 0, op);
    ev[1].basic = basic, ev[1].elem = elem, ev[1].target_bytes = std::move(bytes);
    if (op == "MPI_NO_OP") ev[1].origin.clear(), ev[1].result = {{0x9100, 0x9104}};
    return ev;
}
// Races between rank 0's and rank 2's epochs on rank 1, concurrent (no ordering between them).
inline std::vector<Finding> pair_races(const std::vector<Event>& a, const std::vector<Event>& b) {
    auto t = job(3);
    add(t[0], a);
    add(t[2], b);
    return races(t);
}

}  // namespace rmacheck::test
