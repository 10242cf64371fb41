#include "tools/simulator/engine.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <unordered_map>
#include <vector>

#include "tools/simulator/radix_heap.h"

namespace jobsentry::sim {
namespace {

enum EventKind : std::uint32_t { kReady, kEager, kRts, kCts, kData };

struct Event {
    Time time;
    std::uint32_t op;    // the op that became ready, or the send op a message belongs to
    std::uint32_t kind;
};

constexpr std::uint32_t kNil = 0xffffffffu;

struct QueueNode {      // an entry of a posted or unexpected queue
    Time nic_done;      // unexpected messages: when the receiving NIC took the first byte
    std::uint32_t op;   // recv op (posted) or send op (unexpected)
    std::uint32_t next;
};

struct List {
    std::uint32_t head = kNil, tail = kNil;
};

struct RankState {
    Time cpu_free = 0, nic_send_free = 0, nic_recv_free = 0;
    List posted, unexpected;
};

class Engine {
public:
    Engine(Schedule& s, const LogGOPS& p, const Noise& n) : s_(s), p_(p), noise_(n), ranks_(s.num_ranks) {
        if (!s.placement.empty()) {  // several CPUs or NICs per rank (GOAL's cpu N / nic N)
            cpus_.assign(std::uint64_t{s.num_ranks} * s.cpus, 0);
            nics_.assign(std::uint64_t{s.num_ranks} * s.nics * 2, 0);
        }
    }

    SimResult run() {
        auto t0 = std::chrono::steady_clock::now();
        double cpu0 = thread_cpu_seconds();
        for (std::uint32_t i = 0; i < s_.ops.size(); ++i) s_.ops[i].ready_at = 0;
        reset_deps();
        size_t initial = 0;
        for (const Op& op : s_.ops) initial += op.deps() == 0;
        q_.reserve_now(initial);
        pool_.reserve(ranks_.size());  // a posted receive per rank is common
        for (std::uint32_t i = 0; i < s_.ops.size(); ++i)
            if (s_.ops[i].deps() == 0) q_.push({0, i, kReady});
        for (;;) {
            Event e;
            if (now_head_ < now_q_.size()) {
                e = now_q_[now_head_++];
            } else {
                now_q_.clear();
                now_head_ = 0;
                if (q_.empty()) break;
                e = q_.pop();
                now_ = e.time;
            }
            ++r_.events;
            // Large runs are bound by cache misses on ops spread over a gigabyte
            // and on rank states: fetch the op of an event 16 pops ahead, and
            // the rank state of one 8 ahead (whose op is in cache by now).
            if (const Event* n = q_.ahead(16)) __builtin_prefetch(&s_.ops[n->op]);
            if (const Event* n = q_.ahead(8)) {
                const Op& op = s_.ops[n->op];
                __builtin_prefetch(&ranks_[n->kind == kReady || n->kind == kCts ? op.rank
                                                                                 : static_cast<std::uint32_t>(op.peer)]);
            }
            if (const Event* n = q_.ahead(4)) {  // the queue entry or successor list it will need
                const Op& op = s_.ops[n->op];
                if (n->kind == kEager || n->kind == kRts) {
                    std::uint32_t head = ranks_[static_cast<std::uint32_t>(op.peer)].posted.head;
                    if (head != kNil) __builtin_prefetch(&pool_[head]);
                } else if (n->kind == kReady) {
                    __builtin_prefetch(&s_.succ_begin[n->op]);
                }
            }
            switch (e.kind) {
                case kReady: ready(e.op, e.time); break;
                case kEager: arrive(e.op, e.time, false); break;
                case kRts: arrive(e.op, e.time, true); break;
                case kCts: clear_to_send(e.op, e.time); break;
                case kData: data(e.op, e.time); break;
            }
        }
        r_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        r_.cpu_seconds = thread_cpu_seconds() - cpu0;
        if (done_ != s_.ops.size()) describe_deadlock();
        return r_;
    }

private:
    void reset_deps() {
        for (Op& op : s_.ops) op.deps_kind &= ~Op::kDepsMask;
        for (std::uint32_t e : s_.succ) ++s_.ops[e & ~kStartEdge].deps_kind;
    }

    // Satisfies the dependencies on `op` of one kind (start or end) at time t.
    void release(std::uint32_t op, Time t, bool at_start) {
        for (std::uint32_t i = s_.succ_begin[op], end = s_.succ_begin[op + 1]; i < end; ++i) {
            std::uint32_t e = s_.succ[i];
            if (((e & kStartEdge) != 0) != at_start) continue;
            Op& next = s_.ops[e & ~kStartEdge];
            next.ready_at = std::max(next.ready_at, t);
            if (--next.deps_kind & Op::kDepsMask) continue;
            // Ready now (a receive posted as its send starts): run it next,
            // while its op, next to the one just run, is still in cache.
            if (next.ready_at == now_) now_q_.push_back({now_, e & ~kStartEdge, kReady});
            else q_.push({next.ready_at, e & ~kStartEdge, kReady});
        }
    }
    // The free times of the CPU and the NICs an op uses: the rank state's own
    // unless the schedule places ops on several. A message travels between NICs
    // of the send's number (its `nic N`); a receive's CPU work runs on its `cpu N`.
    Time& cpu_free(std::uint32_t op) {
        const Op& o = s_.ops[op];
        return cpus_.empty() ? ranks_[o.rank].cpu_free : cpus_[std::uint64_t{o.rank} * s_.cpus + s_.cpu(op)];
    }
    Time& nic_send_free(std::uint32_t send) {
        const Op& o = s_.ops[send];
        return nics_.empty() ? ranks_[o.rank].nic_send_free
                             : nics_[(std::uint64_t{o.rank} * s_.nics + s_.nic(send)) * 2];
    }
    Time& nic_recv_free(std::uint32_t send) {
        const Op& o = s_.ops[send];
        auto dest = static_cast<std::uint32_t>(o.peer);
        return nics_.empty() ? ranks_[dest].nic_recv_free
                             : nics_[(std::uint64_t{dest} * s_.nics + s_.nic(send)) * 2 + 1];
    }

    void started(std::uint32_t op, Time t) { release(op, t, true); }
    void completed(std::uint32_t op, Time t) {
        ++done_;
        r_.makespan = std::max(r_.makespan, t);
        release(op, t, false);
    }

    void ready(std::uint32_t id, Time now) {
        const Op& op = s_.ops[id];
        RankState& r = ranks_[op.rank];
        switch (op.kind()) {
            case OpKind::calc: {
                Time& cpu = cpu_free(id);
                Time start = std::max(now, cpu);
                cpu = noise_.advance(op.rank, start, op.size);
                started(id, start);
                completed(id, cpu);
                break;
            }
            case OpKind::send: {
                Time &cpu = cpu_free(id), &nic = nic_send_free(id);
                Time start = std::max({now, cpu, nic});
                started(id, start);
                if (op.size <= p_.S) {
                    // CPU: o + (s-1)O; NIC: g + (s-1)G; the first byte is on the wire after o.
                    Time first_byte = noise_.advance(op.rank, start, p_.o);
                    cpu = noise_.advance(op.rank, first_byte, p_.bytes_O(op.size));
                    nic = start + p_.nic(op.size);
                    q_.push({first_byte + p_.L, id, kEager});
                    completed(id, cpu);
                } else {
                    // Rendezvous: a request-to-send (o, g); the data goes when the clear-to-send arrives.
                    cpu = noise_.advance(op.rank, start, p_.o);
                    nic = start + p_.g;
                    q_.push({cpu + p_.L, id, kRts});
                }
                break;
            }
            case OpKind::recv: {
                started(id, now);
                std::uint32_t send = take(r.unexpected, op.peer, op.tag, true);
                if (send == kNil) {
                    append(r.posted, id, 0);
                } else {
                    Time nic_done = taken_nic_done_;
                    if (s_.ops[send].size <= p_.S) receive(id, send, now, nic_done);
                    else reply(id, send, now, nic_done);
                }
                break;
            }
        }
    }

    // A message (eager data, or a rendezvous request) reaches its destination's NIC.
    void arrive(std::uint32_t send, Time now, bool rts) {
        const Op& s = s_.ops[send];
        RankState& r = ranks_[s.peer];
        Time& nic_free = nic_recv_free(send);
        Time nic = std::max(now, nic_free);
        nic_free = nic + (rts ? p_.g : p_.nic(s.size));
        std::uint32_t recv = take(r.posted, static_cast<std::int32_t>(s.rank), s.tag, false);
        if (recv == kNil) {
            ++r_.unexpected;
            append(r.unexpected, send, nic);
        } else if (rts) {
            reply(recv, send, now, nic);
        } else {
            receive(recv, send, now, nic);
        }
    }

    // Receive side of a message whose first byte the NIC took at `nic`: CPU
    // o + (s-1)O, not before the last byte ((s-1)G later) plus o.
    void receive(std::uint32_t recv, std::uint32_t send, Time now, Time nic) {
        const Op& op = s_.ops[recv];
        Time& cpu = cpu_free(recv);
        std::uint64_t size = s_.ops[send].size;
        Time start = std::max({now, cpu, nic});
        Time end = std::max(noise_.advance(op.rank, start, p_.cpu(size)), nic + p_.bytes_G(size) + p_.o);
        cpu = end;
        ++r_.messages;
        completed(recv, end);
    }

    // Rendezvous: the receiver matched a request and answers clear-to-send (o, then L).
    void reply(std::uint32_t recv, std::uint32_t send, Time now, Time nic) {
        Time& cpu = cpu_free(recv);
        Time start = std::max({now, cpu, nic});
        cpu = noise_.advance(s_.ops[recv].rank, start, p_.o);
        rendezvous_[send] = recv;
        q_.push({cpu + p_.L, send, kCts});
    }

    void clear_to_send(std::uint32_t send, Time now) {
        const Op& op = s_.ops[send];
        Time &cpu = cpu_free(send), &nic = nic_send_free(send);
        Time start = std::max({now, cpu, nic});
        Time first_byte = noise_.advance(op.rank, start, p_.o);
        cpu = noise_.advance(op.rank, first_byte, p_.bytes_O(op.size));
        nic = start + p_.nic(op.size);
        q_.push({first_byte + p_.L, send, kData});
        completed(send, cpu);
    }

    void data(std::uint32_t send, Time now) {
        const Op& s = s_.ops[send];
        Time& nic_free = nic_recv_free(send);
        Time nic = std::max(now, nic_free);
        nic_free = nic + p_.nic(s.size);
        auto it = rendezvous_.find(send);
        std::uint32_t recv = it->second;
        rendezvous_.erase(it);
        receive(recv, send, now, nic);
    }

    // Removes and returns the first entry of `list` matching (source, tag):
    // in the unexpected queue entries are sends and `source` may be any;
    // in the posted queue entries are receives whose source may be any.
    std::uint32_t take(List& list, std::int32_t source, std::int32_t tag, bool entries_are_sends) {
        std::uint32_t prev = kNil;
        for (std::uint32_t i = list.head; i != kNil; prev = i, i = pool_[i].next) {
            const Op& e = s_.ops[pool_[i].op];
            bool tag_ok = e.tag == tag || e.tag == kAnyTag || tag == kAnyTag;
            bool source_ok = entries_are_sends ? (source == kAnySource || static_cast<std::int32_t>(e.rank) == source)
                                               : (e.peer == kAnySource || e.peer == source);
            bool match = tag_ok && source_ok;
            if (!match) continue;
            (prev == kNil ? list.head : pool_[prev].next) = pool_[i].next;
            if (list.tail == i) list.tail = prev;
            pool_[i].next = free_;
            free_ = i;
            taken_nic_done_ = pool_[i].nic_done;
            return pool_[i].op;
        }
        return kNil;
    }

    void append(List& list, std::uint32_t op, Time nic_done) {
        std::uint32_t i = free_;
        if (i != kNil) {
            free_ = pool_[i].next;
            pool_[i] = {nic_done, op, kNil};
        } else {
            i = static_cast<std::uint32_t>(pool_.size());
            pool_.push_back({nic_done, op, kNil});
        }
        (list.tail == kNil ? list.head : pool_[list.tail].next) = i;
        list.tail = i;
    }

    void describe_deadlock() {
        std::uint64_t stuck = s_.ops.size() - done_;
        std::string first;
        for (std::uint32_t r = 0; r < ranks_.size() && first.empty(); ++r) {
            if (ranks_[r].posted.head != kNil) {
                const Op& op = s_.ops[pool_[ranks_[r].posted.head].op];
                first = "rank " + std::to_string(r) + " waits for a message from " +
                        (op.peer == kAnySource ? std::string("any source") : "rank " + std::to_string(op.peer)) +
                        " with tag " + std::to_string(op.tag);
            }
        }
        for (std::uint32_t r = 0; r < ranks_.size() && first.empty(); ++r) {
            if (ranks_[r].unexpected.head != kNil) {  // a rendezvous send nobody receives
                const Op& op = s_.ops[pool_[ranks_[r].unexpected.head].op];
                first = "rank " + std::to_string(op.rank) + " sends " + std::to_string(op.size) +
                        " bytes (rendezvous) to rank " + std::to_string(r) + " with tag " + std::to_string(op.tag) +
                        ", which posts no matching receive";
            }
        }
        r_.error = "the schedule deadlocked: " + std::to_string(stuck) + " operations never completed" +
                   (first.empty() ? std::string(" (a dependency cycle)") : "; e.g. " + first);
    }

    Schedule& s_;
    const LogGOPS& p_;
    const Noise& noise_;
    BigVector<RankState> ranks_;
    BigVector<Time> cpus_, nics_;  // placed schedules only: per (rank, cpu); per (rank, nic) send, receive
    BigVector<QueueNode> pool_;
    std::uint32_t free_ = kNil;
    Time taken_nic_done_ = 0;
    std::unordered_map<std::uint32_t, std::uint32_t> rendezvous_;  // send op -> matched recv op
    RadixHeap<Event> q_;
    std::vector<Event> now_q_;  // events of the current time found while running one (FIFO)
    size_t now_head_ = 0;
    Time now_ = 0;
    std::uint64_t done_ = 0;
    SimResult r_;
};

}  // namespace

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

SimResult simulate(Schedule& schedule, const LogGOPS& params, const Noise& noise) {
    return Engine(schedule, params, noise).run();
}

}  // namespace jobsentry::sim
