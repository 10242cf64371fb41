#include "tools/simulator/loggopsim_engine.h"

#include <algorithm>
#include <chrono>
#include <list>
#include <queue>
#include <vector>

namespace jobsentry::sim {
namespace {

// A queued op (ready to run, or waiting for its CPU or NIC) or a message.
struct Item {
    Time time;
    std::uint64_t order;  // when it was first queued: LogGOPSim's STRICT_ORDER tie break
    std::uint32_t op;     // for a message: its send op
    bool message;
};

struct Later {
    bool operator()(const Item& a, const Item& b) const {
        return a.time > b.time || (a.time == b.time && a.order > b.order);
    }
};

// LogGOPSim's order of op types among ops freed together (OP_SEND < OP_RECV < OP_LOCOP).
int type_rank(OpKind k) { return k == OpKind::send ? 0 : k == OpKind::recv ? 1 : 2; }

bool tags_match(std::int32_t a, std::int32_t b) { return a == b || a == kAnyTag || b == kAnyTag; }

class ReferenceEngine {
public:
    ReferenceEngine(Schedule& s, const LogGOPS& p, const Noise& n)
        : s_(s), p_(p), noise_(n), nexto_(std::uint64_t{s.num_ranks} * s.cpus, 0),
          nextgr_(std::uint64_t{s.num_ranks} * s.nics, 0), nextgs_(nextgr_.size(), 0), posted_(s.num_ranks),
          unexpected_(s.num_ranks) {}

    SimResult run() {
        auto t0 = std::chrono::steady_clock::now();
        double cpu0 = thread_cpu_seconds();
        for (Op& op : s_.ops) op.deps_kind &= ~Op::kDepsMask;
        for (std::uint32_t e : s_.succ) ++s_.ops[e & ~kStartEdge].deps_kind;
        for (std::uint32_t i = 0; i < s_.ops.size(); ++i)
            if (s_.ops[i].deps() == 0) freed_.push_back(i);
        queue_freed(true);
        while (!q_.empty()) {
            Item it = q_.top();
            q_.pop();
            ++r_.events;
            if (it.message) message(it);
            else run_op(it);
            queue_freed(false);
        }
        for (Time t : nexto_) r_.makespan = std::max(r_.makespan, t);  // LogGOPSim reports the last CPU time
        r_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        r_.cpu_seconds = thread_cpu_seconds() - cpu0;
        if (done_ != s_.ops.size()) describe_deadlock();
        return r_;
    }

private:
    Time& cpu(std::uint32_t rank, std::uint32_t index) { return nexto_[std::uint64_t{rank} * s_.cpus + index]; }
    Time& nic_send(std::uint32_t rank, std::uint32_t index) { return nextgs_[std::uint64_t{rank} * s_.nics + index]; }
    Time& nic_recv(std::uint32_t rank, std::uint32_t index) { return nextgr_[std::uint64_t{rank} * s_.nics + index]; }

    // MarkNodeAsStarted / MarkNodeAsDone: successors whose last dependency
    // this was are freed, in the order of their edges.
    void release(std::uint32_t op, bool at_start) {
        for (std::uint32_t i = s_.succ_begin[op], end = s_.succ_begin[op + 1]; i < end; ++i) {
            std::uint32_t e = s_.succ[i];
            if (((e & kStartEdge) != 0) != at_start) continue;
            Op& next = s_.ops[e & ~kStartEdge];
            if ((--next.deps_kind & Op::kDepsMask) == 0) freed_.push_back(e & ~kStartEdge);
        }
    }
    void done(std::uint32_t op) {
        ++done_;
        release(op, false);
    }

    // Freed ops are queued rank by rank (ascending), each rank's sorted by
    // type with std::sort as LogGOPSim does (not stable: with more than 16
    // ops the order among equal types is std::sort's, and so is ours), at the
    // time their CPU (a send: and NIC) is free. At the start all are at 0.
    void queue_freed(bool at_start) {
        std::stable_sort(freed_.begin(), freed_.end(),
                         [this](std::uint32_t a, std::uint32_t b) { return s_.ops[a].rank < s_.ops[b].rank; });
        for (size_t i = 0; i < freed_.size();) {
            size_t j = i;
            while (j < freed_.size() && s_.ops[freed_[j]].rank == s_.ops[freed_[i]].rank) ++j;
            std::sort(freed_.begin() + static_cast<std::ptrdiff_t>(i), freed_.begin() + static_cast<std::ptrdiff_t>(j),
                      [this](std::uint32_t a, std::uint32_t b) {
                          return type_rank(s_.ops[a].kind()) < type_rank(s_.ops[b].kind());
                      });
            for (; i < j; ++i) {
                std::uint32_t id = freed_[i];
                const Op& op = s_.ops[id];
                Time t = cpu(op.rank, s_.cpu(id));
                if (op.kind() == OpKind::send) t = std::max(t, nic_send(op.rank, s_.nic(id)));
                q_.push({at_start ? 0 : t, order_++, id, false});
            }
        }
        freed_.clear();
    }

    void run_op(Item it) {
        const Op& op = s_.ops[it.op];
        Time& o = cpu(op.rank, s_.cpu(it.op));
        switch (op.kind()) {
            case OpKind::calc:
                if (o > it.time) return requeue(it, o);
                o = noise_.advance(op.rank, it.time, op.size);
                release(it.op, true);
                done(it.op);
                break;
            case OpKind::send: {
                Time& gs = nic_send(op.rank, s_.nic(it.op));
                if (std::max(o, gs) > it.time) return requeue(it, std::max(o, gs));
                release(it.op, true);
                o = noise_.advance(op.rank, it.time, p_.o) + p_.bytes_O(op.size);
                gs = it.time + p_.nic(op.size);
                q_.push({it.time + p_.o + p_.L, order_++, it.op, true});  // the first byte's arrival
                if (op.size <= p_.S) done(it.op);  // rendezvous: when the receive matches
                break;
            }
            case OpKind::recv: {
                release(it.op, true);
                std::uint32_t send = take(unexpected_[op.rank], [&](std::uint32_t s) {
                    const Op& m = s_.ops[s];
                    return (op.peer == kAnySource || static_cast<std::int32_t>(m.rank) == op.peer) &&
                           tags_match(m.tag, op.tag);
                });
                if (send == kNone) {
                    posted_[op.rank].push_back(it.op);
                    break;
                }
                // LogGOPSim asks the receive's size, and frees the sender's CPU and
                // NIC of the receive's numbers.
                if (op.size > p_.S) rendezvous_matched(send, s_.cpu(it.op), s_.nic(it.op), it.time);
                done(it.op);
                break;
            }
        }
    }

    // A message at its destination: it needs the CPU and the NIC numbered as
    // its send's cpu and nic there, both free, and takes o + max((s-1)O, (s-1)G)
    // and g + (s-1)G of them.
    void message(Item it) {
        const Op& m = s_.ops[it.op];
        auto dest = static_cast<std::uint32_t>(m.peer);
        Time &o = cpu(dest, s_.cpu(it.op)), &gr = nic_recv(dest, s_.nic(it.op));
        if (std::max(o, gr) > it.time) return requeue(it, std::max(o, gr));
        o = noise_.advance(dest, it.time, p_.o) + std::max(p_.bytes_O(m.size), p_.bytes_G(m.size));
        gr = it.time + p_.nic(m.size);
        ++r_.messages;
        std::uint32_t recv = take(posted_[dest], [&](std::uint32_t r) {
            const Op& op = s_.ops[r];
            return (op.peer == kAnySource || op.peer == static_cast<std::int32_t>(m.rank)) && tags_match(op.tag, m.tag);
        });
        if (recv == kNone) {
            ++r_.unexpected;
            unexpected_[dest].push_back(it.op);
            return;
        }
        if (m.size > p_.S) rendezvous_matched(it.op, s_.cpu(it.op), s_.nic(it.op), it.time);
        done(recv);
    }

    // The send of a matched rendezvous message completes now; the sender's
    // CPU and NIC are not free before now (LogGOPSim sends no clear-to-send).
    void rendezvous_matched(std::uint32_t send, std::uint32_t cpu_index, std::uint32_t nic_index, Time now) {
        std::uint32_t sender = s_.ops[send].rank;
        Time &o = cpu(sender, cpu_index), &gs = nic_send(sender, nic_index);
        o = std::max(o, now);
        gs = std::max(gs, now);
        done(send);
    }

    void requeue(Item it, Time t) {
        it.time = t;  // keeps its first order: LogGOPSim re-inserts with the old timestamp
        q_.push(it);
    }

    static constexpr std::uint32_t kNone = 0xffffffffu;

    void describe_deadlock() {
        std::string example;
        for (std::uint32_t r = 0; r < posted_.size() && example.empty(); ++r) {
            if (posted_[r].empty()) continue;
            const Op& op = s_.ops[posted_[r].front()];
            example = "; e.g. rank " + std::to_string(r) + " waits for a message from " +
                      (op.peer == kAnySource ? std::string("any source") : "rank " + std::to_string(op.peer)) +
                      " with tag " + std::to_string(op.tag);
        }
        if (example.empty()) example = " (a dependency cycle or an unreceived rendezvous send)";
        r_.error = "the schedule deadlocked (LogGOPSim model): " + std::to_string(s_.ops.size() - done_) +
                   " operations never completed" + example;
    }

    template <class Match>
    std::uint32_t take(std::list<std::uint32_t>& list, Match match) {
        for (auto i = list.begin(); i != list.end(); ++i) {
            if (!match(*i)) continue;
            std::uint32_t op = *i;
            list.erase(i);
            return op;
        }
        return kNone;
    }

    Schedule& s_;
    const LogGOPS& p_;
    const Noise& noise_;
    std::vector<Time> nexto_, nextgr_, nextgs_;  // per (rank, cpu) and (rank, nic)
    std::vector<std::list<std::uint32_t>> posted_, unexpected_;  // receive ops; send ops of arrived messages
    std::priority_queue<Item, std::vector<Item>, Later> q_;
    std::vector<std::uint32_t> freed_;
    std::uint64_t order_ = 0, done_ = 0;
    SimResult r_;
};

}  // namespace

SimResult simulate_loggopsim(Schedule& schedule, const LogGOPS& params, const Noise& noise) {
    return ReferenceEngine(schedule, params, noise).run();
}

}  // namespace jobsentry::sim
