// Offline matching and vector clocks (see happens_before.h).
#include "tools/rmacheck/analysis/happens_before.h"

#include <algorithm>
#include <deque>
#include <tuple>

#include "tools/rmacheck/analysis/threads.h"

namespace rmacheck {

using trace::CollKind;
using trace::OmpKind;
using trace::Rec;
using trace::SyncKind;

namespace {
const std::vector<int32_t> kNone;
}

Execution::Execution(const std::vector<RankTrace>& traces) : traces_(traces) {
    for (size_t s = 0; s < traces_.size(); ++s)
        if (traces_[s].rank >= 0) slot_of_world_.emplace(traces_[s].rank, static_cast<int>(s));
    size_t n = traces_.size();
    deps_.resize(n), group_.resize(n), clock_id_.resize(n), win_number_.resize(n);
    for (size_t s = 0; s < n; ++s) {
        deps_[s].resize(traces_[s].events.size());
        group_[s].assign(traces_[s].events.size(), -1);
    }
    // Windows are created collectively: the k-th window on a communicator is the same window everywhere.
    std::map<std::pair<std::vector<int32_t>, uint32_t>, int> numbers;
    std::vector<std::tuple<int, size_t, int>> order;  // (local id, slot) by creation
    for (size_t s = 0; s < n; ++s)
        for (const auto& [id, w] : traces_[s].wins) {
            auto c = traces_[s].comms.find(w.comm);
            auto key = std::make_pair(c == traces_[s].comms.end() ? kNone : c->second, w.ordinal);
            auto it = numbers.find(key);
            if (it == numbers.end()) it = numbers.emplace(key, static_cast<int>(numbers.size()) + 1).first;
            win_number_[s][id] = it->second;
        }
    make_lanes();
    match();
    for (size_t s = 0; s < n; ++s)
        if (!thread_number_[s].empty()) order_threads(static_cast<int>(s));
    compute_clocks();
}

// One lane per rank, or per thread of a rank ordered by OpenMP synchronisation.
void Execution::make_lanes() {
    size_t n = traces_.size();
    lane_of_.resize(n), pos_.resize(n), thread_number_.resize(n);
    for (size_t s = 0; s < n; ++s) {
        const RankTrace& t = traces_[s];
        bool per_thread = ompt_ordered(t);
        std::map<uint32_t, int> lane_of_thread;
        if (per_thread)
            for (uint32_t tid : t.thread_order)
                thread_number_[s].emplace(tid, static_cast<int>(thread_number_[s].size()) + 1);
        lane_of_[s].resize(t.events.size()), pos_[s].resize(t.events.size());
        int whole = -1;
        // GCC's sections (OmpKind::section_begin / sections_end): each section a thread runs is a lane
        // of its own, after the thread's last event before the construct; the thread's next event
        // after it comes after the last event of each. Two sections one thread ran in turn are then as
        // unordered as when two threads ran them: OpenMP gives sections no order.
        struct Sections {
            int lane = -1;             // the section under way, or -1 outside any
            long fork = -1;            // the thread's event before the construct
            std::vector<size_t> last;  // the last event of each section it ran
        };
        std::map<uint32_t, Sections> sections;
        std::map<uint32_t, long> last_on_thread;  // its latest event outside sections
        auto new_lane = [&] {
            lanes_.emplace_back();
            return static_cast<int>(lanes_.size()) - 1;
        };
        auto lane_end = [&](int lane, std::vector<size_t>* out) {
            if (!lanes_[static_cast<size_t>(lane)].empty()) out->push_back(lanes_[static_cast<size_t>(lane)].back().index);
        };
        for (size_t i = 0; i < t.events.size(); ++i) {
            const Event& e = t.events[i];
            int& base = per_thread ? lane_of_thread.emplace(e.thread, -1).first->second : whole;
            if (base < 0) base = new_lane();
            int l = base;
            if (per_thread) {
                Sections& sec = sections[e.thread];
                const bool omp = e.type == Rec::omp;
                if (omp && static_cast<OmpKind>(e.kind) == OmpKind::section_begin) {
                    if (sec.lane < 0) {
                        auto it = last_on_thread.find(e.thread);
                        sec.fork = it == last_on_thread.end() ? -1 : it->second;
                        sec.last.clear();
                    } else {
                        lane_end(sec.lane, &sec.last);
                    }
                    sec.lane = l = new_lane();
                    if (sec.fork >= 0) deps_[s][i].push_back({static_cast<int>(s), static_cast<size_t>(sec.fork)});
                } else if (sec.lane >= 0 && omp && static_cast<OmpKind>(e.kind) == OmpKind::sections_end) {
                    lane_end(sec.lane, &sec.last);
                    for (size_t j : sec.last) deps_[s][i].push_back({static_cast<int>(s), j});
                    sec.lane = -1;
                } else if (sec.lane >= 0) {
                    l = sec.lane;
                }
                if (l == base) last_on_thread[e.thread] = static_cast<long>(i);
            }
            lane_of_[s][i] = l;
            pos_[s][i] = lanes_[static_cast<size_t>(l)].size();
            lanes_[static_cast<size_t>(l)].push_back({static_cast<int>(s), i});
        }
    }
}

int Execution::thread_number(EventRef e) const {
    const auto& numbers = thread_number_[static_cast<size_t>(e.slot)];
    auto it = numbers.find(traces_[static_cast<size_t>(e.slot)].events[e.index].thread);
    return it == numbers.end() ? 0 : it->second;
}

// OpenMP's edges between the threads of one rank (OMPT records, trace_format.h OmpKind):
//  fork:     parallel_begin -> every implicit task's begin;
//  barrier:  the k-th barrier of every implicit task of a region is one barrier: every begin -> every end
//            (the implicit barrier at the end of a region is the join);
//  mutex:    per wait id, the critical sections in the order they were acquired (the acquired callback
//            runs once the mutex is held): a section's release -> the next section's acquire;
//  tasks:    create -> begin; end -> the creator's next taskwait end, and the ends of the first barrier
//            of the creator's region that the creating thread enters after creating it; between
//            sibling tasks, depend clauses on one address: the last out -> a later in or out, every in
//            since -> a later out (end -> begin).
// Ids never begun in the trace (a region started before MPI_Init) order nothing.
void Execution::order_threads(int slot) {
    const RankTrace& t = traces_[static_cast<size_t>(slot)];
    auto& deps = deps_[static_cast<size_t>(slot)];
    std::map<uint64_t, size_t> region_begin;                    // parallel region -> parallel_begin
    std::map<uint64_t, uint64_t> region_of;                     // implicit or explicit task -> its region
    std::map<uint64_t, size_t> barriers_of;                     // implicit task -> barriers begun so far
    std::map<std::pair<uint64_t, size_t>, std::vector<size_t>> barrier_begins, barrier_ends;  // (region, k)
    std::map<uint64_t, std::vector<size_t>> acquires;           // wait id -> acquires in order
    std::map<std::pair<uint32_t, uint64_t>, size_t> held;       // (thread, wait id) -> its acquire
    std::map<size_t, size_t> release_of;                        // acquire -> the release ending its section
    struct Task {
        size_t create = 0;
        uint64_t parent = 0;
        long begin = -1, end = -1;
        std::pair<uint64_t, size_t> barrier{0, SIZE_MAX};  // the barrier that completes it, if found
    };
    std::map<uint64_t, Task> tasks;
    std::map<uint32_t, std::vector<uint64_t>> unbarriered;  // thread -> tasks it created not yet at a barrier
    std::vector<std::pair<size_t, uint64_t>> taskwait_ends;  // (event, waiting task)
    struct Depend {
        uint64_t last_out = 0;      // the last sibling with depend(out/inout) on the address
        std::vector<uint64_t> ins;  // siblings with depend(in) since
    };
    std::map<std::pair<uint64_t, uint64_t>, Depend> depends;  // (parent task, address)
    std::vector<std::pair<uint64_t, uint64_t>> after;          // (task, task that begins after its end)
    for (size_t i = 0; i < t.events.size(); ++i) {
        const Event& e = t.events[i];
        if (e.type != Rec::omp) continue;
        switch (static_cast<OmpKind>(e.kind)) {
        case OmpKind::parallel_begin: region_begin[e.id] = i; break;
        case OmpKind::implicit_begin: {
            region_of[e.id2] = e.id;
            auto it = region_begin.find(e.id);
            if (it != region_begin.end()) deps[i].push_back({slot, it->second});
            break;
        }
        case OmpKind::barrier_begin:
        case OmpKind::barrier_end: {
            auto r = region_of.find(e.id2);
            if (r == region_of.end()) break;
            bool begin = static_cast<OmpKind>(e.kind) == OmpKind::barrier_begin;
            size_t& k = barriers_of[e.id2];
            if (begin) {
                std::pair<uint64_t, size_t> key{r->second, k++};
                barrier_begins[key].push_back(i);
                for (uint64_t task : unbarriered[e.thread])
                    if (tasks[task].barrier.second == SIZE_MAX && region_of[task] == r->second) tasks[task].barrier = key;
                unbarriered[e.thread].clear();
            } else if (k > 0) {
                barrier_ends[{r->second, k - 1}].push_back(i);
            }
            break;
        }
        case OmpKind::mutex_acquired:
            acquires[e.id].push_back(i);
            held[{e.thread, e.id}] = i;
            break;
        case OmpKind::mutex_released: {
            auto it = held.find({e.thread, e.id});
            if (it != held.end()) release_of[it->second] = i, held.erase(it);
            break;
        }
        case OmpKind::task_create: {
            Task& task = tasks[e.id2];
            task.create = i, task.parent = e.id;
            auto r = region_of.find(e.id);
            if (r != region_of.end()) region_of[e.id2] = r->second;
            unbarriered[e.thread].push_back(e.id2);
            break;
        }
        case OmpKind::task_begin: {
            auto it = tasks.find(e.id2);
            if (it != tasks.end() && it->second.begin < 0) {
                it->second.begin = static_cast<long>(i);
                deps[i].push_back({slot, it->second.create});
            }
            break;
        }
        case OmpKind::task_end: {
            auto it = tasks.find(e.id2);
            if (it != tasks.end()) it->second.end = static_cast<long>(i);
            break;
        }
        case OmpKind::taskwait_end: taskwait_ends.emplace_back(i, e.id2); break;
        case OmpKind::depend_in:
        case OmpKind::depend_out: {
            auto it = tasks.find(e.id2);
            if (it == tasks.end()) break;
            Depend& d = depends[{it->second.parent, e.id}];
            if (d.last_out) after.emplace_back(d.last_out, e.id2);
            if (static_cast<OmpKind>(e.kind) == OmpKind::depend_in) {
                d.ins.push_back(e.id2);
            } else {
                for (uint64_t in : d.ins) after.emplace_back(in, e.id2);
                d.ins.clear();
                d.last_out = e.id2;
            }
            break;
        }
        default: break;
        }
    }
    for (const auto& [key, ends] : barrier_ends)
        for (size_t end : ends)
            for (size_t begin : barrier_begins[key]) deps[end].push_back({slot, begin});
    for (const auto& [id, list] : acquires)
        for (size_t k = 1; k < list.size(); ++k) {
            auto r = release_of.find(list[k - 1]);
            if (r != release_of.end()) deps[list[k]].push_back({slot, r->second});
        }
    for (const auto& [first, then] : after) {
        const Task &a = tasks[first], &b = tasks[then];
        if (a.end >= 0 && b.begin >= 0) deps[static_cast<size_t>(b.begin)].push_back({slot, static_cast<size_t>(a.end)});
    }
    for (const auto& [id, task] : tasks) {
        if (task.end < 0) continue;
        EventRef end{slot, static_cast<size_t>(task.end)};
        for (const auto& [at, waiting] : taskwait_ends)
            if (waiting == task.parent && at > task.create) deps[at].push_back(end);
        auto b = barrier_ends.find(task.barrier);
        if (b != barrier_ends.end())
            for (size_t at : b->second) deps[at].push_back(end);
    }
}

int Execution::slot_of_world(int world) const {
    auto it = slot_of_world_.find(world);
    return it == slot_of_world_.end() ? -1 : it->second;
}

int Execution::world_of_comm_rank(int slot, uint32_t comm, int rank) const {
    const auto& comms = traces_[static_cast<size_t>(slot)].comms;
    auto it = comms.find(comm);
    if (it == comms.end() || rank < 0 || static_cast<size_t>(rank) >= it->second.size()) return -1;
    return it->second[static_cast<size_t>(rank)];
}

int Execution::world_of_win_rank(int slot, uint32_t win, int rank) const {
    const auto& wins = traces_[static_cast<size_t>(slot)].wins;
    auto it = wins.find(win);
    return it == wins.end() ? -1 : world_of_comm_rank(slot, it->second.comm, rank);
}

int Execution::window_number(int slot, uint32_t win) const {
    auto it = win_number_[static_cast<size_t>(slot)].find(win);
    return it == win_number_[static_cast<size_t>(slot)].end() ? 0 : it->second;
}

void Execution::match() {
    using Key = std::tuple<std::vector<int32_t>, int, int, int>;  // comm members, from, to, tag
    std::map<Key, std::deque<EventRef>> sends;
    std::map<Key, std::deque<EventRef>> recvs;
    std::map<std::pair<std::vector<int32_t>, uint64_t>, std::vector<EventRef>> colls;  // (members, seq)
    std::map<std::pair<std::vector<int32_t>, uint64_t>, int> coll_root;                 // world rank of root
    std::map<std::pair<std::vector<int32_t>, uint64_t>, CollKind> coll_kind;
    std::map<std::pair<int, uint64_t>, std::vector<EventRef>> fences;  // (window number, seq)
    // PSCW: (window, target, origin) -> posts at the target, starts at the origin, in order.
    std::map<std::tuple<int, int, int>, std::vector<EventRef>> posts, starts;
    std::vector<std::map<uint64_t, size_t>> done_at(traces_.size());  // per slot: request -> its completion

    for (size_t s = 0; s < traces_.size(); ++s) {
        const RankTrace& t = traces_[s];
        int slot = static_cast<int>(s);
        std::map<std::vector<int32_t>, uint64_t> coll_seq;
        std::map<int, uint64_t> fence_seq;
        for (size_t i = 0; i < t.events.size(); ++i) {
            const Event& e = t.events[i];
            EventRef ref{slot, i};
            // A communicator is its members and its generation: a dup has a sequence of its own.
            auto members = [&]() {
                auto it = t.comms.find(e.comm);
                std::vector<int32_t> key = it == t.comms.end() ? kNone : it->second;
                auto g = t.comm_generation.find(e.comm);
                if (g != t.comm_generation.end()) key.push_back(-1 - static_cast<int32_t>(g->second));
                return key;
            };
            if (e.type == Rec::req_done) done_at[s].emplace(e.request, i);
            if (e.type == Rec::send) {
                sends[{members(), t.rank, world_of_comm_rank(slot, e.comm, e.peer), e.tag}].push_back(ref);
            } else if (e.type == Rec::recv || (e.type == Rec::req_done && e.is_recv)) {
                recvs[{members(), world_of_comm_rank(slot, e.comm, e.peer), t.rank, e.tag}].push_back(ref);
            } else if (e.type == Rec::coll) {
                auto key = std::make_pair(members(), coll_seq[members()]++);
                colls[key].push_back(ref);
                coll_kind[key] = static_cast<CollKind>(e.kind);
                if (e.kind != static_cast<uint8_t>(CollKind::all))
                    coll_root[key] = world_of_comm_rank(slot, e.comm, e.peer);
            } else if (e.type == Rec::sync) {
                int w = window_number(slot, e.win);
                auto kind = static_cast<SyncKind>(e.kind);
                if (kind == SyncKind::fence) fences[{w, fence_seq[w]++}].push_back(ref);
                if (kind == SyncKind::post)
                    for (int origin : e.group) posts[{w, t.rank, origin}].push_back(ref);
                if (kind == SyncKind::start)
                    for (int target : e.group) starts[{w, target, t.rank}].push_back(ref);
            }
        }
    }
    for (auto& [key, rs] : recvs) {
        auto& ss = sends[key];
        for (size_t k = 0; k < rs.size(); ++k) {
            if (k < ss.size())
                deps_[rs[k].slot][rs[k].index].push_back(ss[k]);
            else if (slot_of_world(std::get<1>(key)) >= 0)
                warnings_.push_back("a receive on rank " + std::to_string(std::get<2>(key)) + " from rank " +
                                    std::to_string(std::get<1>(key)) + " has no matching send in the traces");
        }
    }
    for (auto& [key, parts] : colls) {
        CollKind kind = coll_kind[key];
        bool nonblocking = std::any_of(parts.begin(), parts.end(), [&](const EventRef& p) {
            return traces_[p.slot].events[p.index].request != 0;
        });
        if (nonblocking) {
            order_nonblocking(parts, kind, coll_root.count(key) ? slot_of_world(coll_root[key]) : -1, done_at);
            continue;
        }
        if (kind == CollKind::all) {
            int g = static_cast<int>(groups_.size());
            groups_.push_back(parts);
            for (const auto& p : parts) group_[p.slot][p.index] = g;
            continue;
        }
        int root_slot = slot_of_world(coll_root[key]);
        const EventRef* root = nullptr;
        for (const auto& p : parts)
            if (p.slot == root_slot) root = &p;
        if (!root) continue;
        for (const auto& p : parts) {
            if (p.slot == root->slot) continue;
            if (kind == CollKind::bcast)
                deps_[p.slot][p.index].push_back(*root);
            else
                deps_[root->slot][root->index].push_back(p);
        }
    }
    for (auto& [key, parts] : fences) {
        int g = static_cast<int>(groups_.size());
        groups_.push_back(parts);
        for (const auto& p : parts) group_[p.slot][p.index] = g;
    }
    // PSCW: the k-th post of target t naming origin o matches the k-th start of o naming t. The
    // origin's next complete on that window orders the target's next wait after the post.
    auto next_sync = [&](EventRef from, SyncKind kind) -> long {
        const auto& ev = traces_[from.slot].events;
        uint32_t win = ev[from.index].win;
        for (size_t j = from.index + 1; j < ev.size(); ++j)
            if (ev[j].type == Rec::sync && ev[j].win == win && ev[j].kind == static_cast<uint8_t>(kind))
                return static_cast<long>(j);
        return -1;
    };
    for (auto& [key, ps] : posts) {
        auto& ss = starts[key];
        for (size_t k = 0; k < ps.size() && k < ss.size(); ++k) {
            deps_[ss[k].slot][ss[k].index].push_back(ps[k]);
            long complete = next_sync(ss[k], SyncKind::complete);
            long wait = next_sync(ps[k], SyncKind::wait);
            if (complete >= 0 && wait >= 0)
                deps_[ps[k].slot][static_cast<size_t>(wait)].push_back({ss[k].slot, static_cast<size_t>(complete)});
        }
    }
}

// A nonblocking collective orders nothing at its call: its completion (the Wait/Test... that completes
// its request; the call itself for a blocking member) comes after the calls of the members it receives
// from — everyone (all), the root (bcast), or, at the root, the others (gather). A request never
// completed in the trace orders nothing.
void Execution::order_nonblocking(const std::vector<EventRef>& parts, CollKind kind, int root_slot,
                                  const std::vector<std::map<uint64_t, size_t>>& done_at) {
    for (const auto& p : parts) {
        const Event& call = traces_[p.slot].events[p.index];
        EventRef done = p;
        if (call.request != 0) {
            auto it = done_at[p.slot].find(call.request);
            if (it == done_at[p.slot].end()) {
                warnings_.push_back("rank " + std::to_string(traces_[p.slot].rank) +
                                    ": a nonblocking collective is never completed in the trace; it orders nothing");
                continue;
            }
            done.index = it->second;
        }
        for (const auto& q : parts) {
            bool from = kind == CollKind::all || (kind == CollKind::bcast && q.slot == root_slot) ||
                        (kind == CollKind::gather && p.slot == root_slot);
            if (q.slot != p.slot && from) deps_[done.slot][done.index].push_back(q);
        }
    }
}

void Execution::compute_clocks() {
    size_t n = lanes_.size();
    std::vector<size_t> cursor(n, 0);  // per lane: its events before this have clocks
    auto done = [&](EventRef r) { return cursor[static_cast<size_t>(lane(r))] > pos(r); };
    auto next = [&](EventRef r) { return cursor[static_cast<size_t>(lane(r))] == pos(r); };
    clocks_.assign(n, 0);  // clock 0: nothing known
    auto stored = [&](EventRef r) { return clocks_.data() + static_cast<size_t>(clock_id_[r.slot][r.index]) * n; };
    auto prev_id = [&](EventRef r) -> uint32_t {
        size_t p = pos(r);
        if (p == 0) return 0;
        EventRef before = lanes_[static_cast<size_t>(lane(r))][p - 1];
        return clock_id_[before.slot][before.index];
    };
    // c := max(c, the full clock of d): its stored clock, and its own lane's component pos + 1.
    auto join_event = [&](std::vector<uint32_t>& c, EventRef d) {
        const uint32_t* from = stored(d);
        for (size_t k = 0; k < n; ++k) c[k] = std::max(c[k], from[k]);
        size_t own = static_cast<size_t>(lane(d));
        c[own] = std::max(c[own], static_cast<uint32_t>(pos(d) + 1));
    };
    auto store = [&](const std::vector<uint32_t>& c) {
        uint32_t id = static_cast<uint32_t>(clocks_.size() / n);
        clocks_.insert(clocks_.end(), c.begin(), c.end());
        return id;
    };
    for (size_t s = 0; s < traces_.size(); ++s) clock_id_[s].assign(traces_[s].events.size(), 0);
    std::vector<uint32_t> c(n);
    bool force = false;
    for (;;) {
        bool progress = false, all_done = true;
        for (size_t l = 0; l < n; ++l) {
            while (cursor[l] < lanes_[l].size()) {
                EventRef r = lanes_[l][cursor[l]];
                size_t s = static_cast<size_t>(r.slot), i = r.index;
                auto& deps = deps_[s][i];
                bool ready = std::all_of(deps.begin(), deps.end(), done);
                int g = group_[s][i];
                if (g >= 0 && ready) {
                    for (const auto& p : groups_[static_cast<size_t>(g)])
                        if (!next(p) ||
                            !std::all_of(deps_[p.slot][p.index].begin(), deps_[p.slot][p.index].end(), done))
                            ready = false;
                }
                if (!ready && force) {
                    warnings_.push_back("rank " + std::to_string(traces_[s].rank) + " event " + std::to_string(i) +
                                        ": its matching events on other ranks are missing; ordered without them");
                    deps.erase(std::remove_if(deps.begin(), deps.end(), [&](EventRef d) { return !done(d); }),
                               deps.end());
                    if (g >= 0) {
                        // Those that have arrived synchronise; the others become ordinary events.
                        auto& parts = groups_[static_cast<size_t>(g)];
                        std::vector<EventRef> arrived;
                        for (const auto& p : parts) {
                            bool here = next(p) && (static_cast<size_t>(lane(p)) == l ||
                                                    std::all_of(deps_[p.slot][p.index].begin(),
                                                                deps_[p.slot][p.index].end(), done));
                            if (here)
                                arrived.push_back(p);
                            else
                                group_[p.slot][p.index] = -1;
                        }
                        parts = arrived;
                    }
                    force = false;
                    ready = true;
                }
                if (!ready) break;
                if (g >= 0) {
                    // Every member ends up knowing every member's past and its own step.
                    std::fill(c.begin(), c.end(), 0);
                    for (const auto& p : groups_[static_cast<size_t>(g)]) {
                        const uint32_t* pre = clocks_.data() + static_cast<size_t>(prev_id(p)) * n;
                        for (size_t k = 0; k < n; ++k) c[k] = std::max(c[k], pre[k]);
                        size_t own = static_cast<size_t>(lane(p));
                        c[own] = std::max(c[own], static_cast<uint32_t>(pos(p) + 1));
                        for (const auto& d : deps_[p.slot][p.index]) join_event(c, d);
                    }
                    uint32_t id = store(c);
                    for (const auto& p : groups_[static_cast<size_t>(g)]) {
                        clock_id_[p.slot][p.index] = id;
                        cursor[static_cast<size_t>(lane(p))] = pos(p) + 1;
                    }
                } else if (deps.empty()) {
                    clock_id_[s][i] = prev_id(r);  // only its own component moved on
                    cursor[l] = pos(r) + 1;
                } else {
                    const uint32_t* pre = clocks_.data() + static_cast<size_t>(prev_id(r)) * n;
                    c.assign(pre, pre + n);
                    c[l] = static_cast<uint32_t>(pos(r) + 1);
                    for (const auto& d : deps) join_event(c, d);
                    clock_id_[s][i] = store(c);
                    cursor[l] = pos(r) + 1;
                }
                progress = true;
            }
            if (cursor[l] < lanes_[l].size()) all_done = false;
        }
        if (all_done) return;
        if (!progress) force = true;  // unmatched events (damaged trace): order the first blocked one alone
    }
}

bool Execution::before(EventRef a, EventRef b) const {
    size_t la = static_cast<size_t>(lane(a));
    if (la == static_cast<size_t>(lane(b))) return pos(a) <= pos(b);
    // a's own component is pos(a) + 1; b's knowledge of a's lane is exact in its stored clock.
    const size_t n = lanes_.size();
    return clocks_[static_cast<size_t>(clock_id_[b.slot][b.index]) * n + la] >= pos(a) + 1;
}

}  // namespace rmacheck
