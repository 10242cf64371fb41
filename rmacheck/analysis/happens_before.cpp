// Offline matching and vector clocks (see happens_before.h).
#include "happens_before.h"

#include <algorithm>
#include <deque>
#include <tuple>

namespace rmacheck {

using trace::CollKind;
using trace::Rec;
using trace::SyncKind;

namespace {
const std::vector<int32_t> kNone;
}

Execution::Execution(const std::vector<RankTrace>& traces) : traces_(traces) {
    for (size_t s = 0; s < traces_.size(); ++s)
        if (traces_[s].rank >= 0) slot_of_world_.emplace(traces_[s].rank, static_cast<int>(s));
    size_t n = traces_.size();
    deps_.resize(n), group_.resize(n), clock_.resize(n), win_number_.resize(n);
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
    match();
    compute_clocks();
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
    size_t n = traces_.size();
    std::vector<size_t> cursor(n, 0);
    auto done = [&](EventRef r) { return cursor[r.slot] > r.index; };
    auto prev_clock = [&](int slot, size_t index) {
        return index == 0 ? std::vector<uint32_t>(n, 0) : clock_[slot][index - 1];
    };
    auto join = [](std::vector<uint32_t>& into, const std::vector<uint32_t>& from) {
        for (size_t k = 0; k < into.size(); ++k) into[k] = std::max(into[k], from[k]);
    };
    for (size_t s = 0; s < n; ++s) clock_[s].resize(traces_[s].events.size());
    bool force = false;
    for (;;) {
        bool progress = false, all_done = true;
        for (size_t s = 0; s < n; ++s) {
            while (cursor[s] < traces_[s].events.size()) {
                size_t i = cursor[s];
                auto& deps = deps_[s][i];
                bool ready = std::all_of(deps.begin(), deps.end(), done);
                int g = group_[s][i];
                if (g >= 0 && ready) {
                    for (const auto& p : groups_[static_cast<size_t>(g)])
                        if (cursor[p.slot] != p.index ||
                            !std::all_of(deps_[p.slot][p.index].begin(), deps_[p.slot][p.index].end(), done))
                            ready = false;
                }
                if (!ready && force) {
                    warnings_.push_back("rank " + std::to_string(traces_[s].rank) + " event " + std::to_string(i) +
                                        ": its matching events on other ranks are missing; ordered without them");
                    deps.erase(std::remove_if(deps.begin(), deps.end(), [&](EventRef r) { return !done(r); }),
                               deps.end());
                    if (g >= 0) {
                        // Those that have arrived synchronise; the others become ordinary events.
                        auto& parts = groups_[static_cast<size_t>(g)];
                        std::vector<EventRef> arrived;
                        for (const auto& p : parts) {
                            bool here = cursor[p.slot] == p.index &&
                                        (p.slot == static_cast<int>(s) ||
                                         std::all_of(deps_[p.slot][p.index].begin(), deps_[p.slot][p.index].end(),
                                                     done));
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
                    std::vector<uint32_t> c(n, 0);
                    for (const auto& p : groups_[static_cast<size_t>(g)]) {
                        std::vector<uint32_t> pre = prev_clock(p.slot, p.index);
                        pre[p.slot] += 1;
                        join(c, pre);
                        for (const auto& d : deps_[p.slot][p.index]) join(c, clock_[d.slot][d.index]);
                    }
                    for (const auto& p : groups_[static_cast<size_t>(g)]) {
                        clock_[p.slot][p.index] = c;
                        cursor[p.slot] = p.index + 1;
                    }
                } else {
                    std::vector<uint32_t> c = prev_clock(static_cast<int>(s), i);
                    c[s] += 1;
                    for (const auto& d : deps) join(c, clock_[d.slot][d.index]);
                    clock_[s][i] = std::move(c);
                    cursor[s] = i + 1;
                }
                progress = true;
            }
            if (cursor[s] < traces_[s].events.size()) all_done = false;
        }
        if (all_done) return;
        if (!progress) force = true;  // unmatched events (damaged trace): order the first blocked one alone
    }
}

bool Execution::before(EventRef a, EventRef b) const {
    if (a.slot == b.slot) return a.index <= b.index;
    return clock_[b.slot][b.index][a.slot] >= clock_[a.slot][a.index][a.slot];
}

}  // namespace rmacheck
