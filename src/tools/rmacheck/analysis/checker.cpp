// Access extraction and the compatibility-table checks (see checker.h).
#include "tools/rmacheck/analysis/checker.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <tuple>

namespace rmacheck {

using trace::Rec;
using trace::RmaKind;
using trace::SyncKind;

const char* to_string(AccessKind k) {
    switch (k) {
    case AccessKind::load: return "load";
    case AccessKind::store: return "store";
    case AccessKind::get: return "get";
    case AccessKind::put: return "put";
    case AccessKind::acc: return "accumulate";
    }
    return "?";
}

namespace {
// Index: load, store, get, put, acc. Within an epoch Put and Acc share a column.
constexpr Compat B = Compat::both, N = Compat::novl, X = Compat::never;
// [second][first] (slide 15: rows are the second access, columns the first).
constexpr Compat kWithin[5][5] = {
    {B, B, N, B, B},  // load after ...
    {B, B, N, N, N},  // store after ...
    {B, B, N, N, N},  // get after ...
    {B, B, N, B, B},  // put after ...
    {B, B, N, B, B},  // acc after ...
};
// Symmetric (slide 16).
constexpr Compat kAcross[5][5] = {
    {B, B, B, N, N},
    {B, B, N, X, X},
    {B, N, B, N, N},
    {N, X, N, N, N},
    {N, X, N, N, B},
};
}  // namespace

Compat within_epoch(AccessKind first, AccessKind second) {
    return kWithin[static_cast<int>(second)][static_cast<int>(first)];
}
Compat across_processes(AccessKind a, AccessKind b) { return kAcross[static_cast<int>(a)][static_cast<int>(b)]; }

namespace {

constexpr size_t kNever = SIZE_MAX;
// Threads ordered apart: how many completed origin-buffer uses stay checked against other threads'
// later events (the oldest are dropped: long runs stay linear; older unordered uses are missed).
constexpr size_t kKeptDone = 256;

struct Access {
    Side side;
    bool atomic = false;  // an accumulate-family operation: accumulate, get_accumulate, fetch_and_op, CAS
    uint32_t elem = 0;    // its basic element size
    EventRef start, end;  // end.index == kNever: never completed in the trace
    int win = 0, target = -1;
    std::vector<Range> bytes;
    int lock = -1;  // lock held on (win, target) when issued: -1 none, 0 shared, 1 exclusive
    bool fetches = false;       // an atomic operation that returns the target's data (reads it)
    uint8_t acc_ordering = 0;   // atomic: the window's accumulate_ordering at the origin (trace::AccOrdering)
};

// An operation's buffer at its origin, kept while it is pending (until local completion).
struct OriginUse {
    Side side;
    EventRef start;
    std::vector<Range> read, written;  // origin (read by MPI) and result (written by MPI)
    uint64_t lo = UINT64_MAX, hi = 0;  // the bounds of both: most pairs are told apart by them alone

    OriginUse(Side s, EventRef at, std::vector<Range> r, std::vector<Range> w)
        : side(std::move(s)), start(at), read(std::move(r)), written(std::move(w)) {
        for (const auto* v : {&read, &written})
            for (const auto& x : *v) lo = std::min(lo, x.lo), hi = std::max(hi, x.hi);
    }
    bool may_meet(uint64_t a, uint64_t b) const { return a < hi && lo < b; }
};

bool overlap(const std::vector<Range>& a, const std::vector<Range>& b, Range* where) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        uint64_t lo = std::max(a[i].lo, b[j].lo), hi = std::min(a[i].hi, b[j].hi);
        if (lo < hi) {
            if (where) *where = {lo, hi};
            return true;
        }
        if (a[i].hi < b[j].hi) ++i; else ++j;
    }
    return false;
}

std::vector<Range> sorted(std::vector<Range> r) {
    std::sort(r.begin(), r.end(), [](const Range& x, const Range& y) { return x.lo < y.lo; });
    return r;
}

bool is_atomic(RmaKind k) { return k != RmaKind::put && k != RmaKind::get; }

const Name kNoOp{"MPI_NO_OP"};  // an accumulate-family operation that only reads

AccessKind kind_of(RmaKind k, Name op) {
    switch (k) {
    case RmaKind::put: return AccessKind::put;
    case RmaKind::get: return AccessKind::get;
    default:  // accumulate, get_accumulate, fetch_and_op, compare_and_swap; with MPI_NO_OP only a read
        return op == kNoOp ? AccessKind::get : AccessKind::acc;
    }
}

}  // namespace

// The trace records one basic type per operation (its target datatype's, or none when the type's
// leaves mix basic types), so "the basic type of the overlapping elements" is that one type.
const char* basic_type_conflict(const AtomicOp& a, const AtomicOp& b) {
    if (a.basic.empty() || b.basic.empty() || a.elem == 0 || b.elem == 0) return kNotOneBasicType;
    if (a.basic != b.basic || a.elem != b.elem) return kDifferentBasicTypes;
    return nullptr;
}

const char* accumulate_conflict(const AtomicOp& a, const AtomicOp& b, const std::vector<Range>& a_bytes,
                                const std::vector<Range>& b_bytes) {
    if (a.op == kNoOp && b.op == kNoOp) return nullptr;  // two reads
    // The types first: with two basic types neither atomicity nor one origin's ordering holds, so that
    // is the reason to give even when the ops differ too (ordering would spare different ops alone).
    if (const char* why = basic_type_conflict(a, b)) return why;
    if (a.op != b.op && a.op != kNoOp && b.op != kNoOp) return "different operations";
    // Elements of one basic type start at the start of each block, so two overlapping blocks hold the
    // same elements exactly when their starts are a whole number of elements apart.
    size_t i = 0, j = 0;
    while (i < a_bytes.size() && j < b_bytes.size()) {
        const Range &x = a_bytes[i], &y = b_bytes[j];
        if (std::max(x.lo, y.lo) < std::min(x.hi, y.hi) && (x.lo > y.lo ? x.lo - y.lo : y.lo - x.lo) % a.elem != 0)
            return "elements not aligned";
        if (x.hi < y.hi) ++i; else ++j;
    }
    return nullptr;
}

namespace {

struct Collector {
    std::map<std::tuple<bool, int, uint64_t, int, uint64_t, int, int, int>, Finding> found;
    void add(Finding f, size_t times = 1) {
        f.occurrences = times;
        // One line per pair of code locations: a loop repeating a race is one finding.
        if (std::tie(f.b.rank, f.b.site) < std::tie(f.a.rank, f.a.site)) std::swap(f.a, f.b);
        auto key = std::make_tuple(f.remote, f.a.rank, f.a.site, f.b.rank, f.b.site, f.win, f.target_rank,
                                   static_cast<int>(f.a.kind) * 8 + static_cast<int>(f.b.kind));
        auto it = found.find(key);
        if (it == found.end())
            found.emplace(key, f);
        else
            it->second.occurrences += times;
    }
};

}  // namespace

namespace {

// Whether a happens before b (an access never completed is ordered before nothing).
bool ordered(const Execution& exec, const Access& a, const Access& b) {
    return a.end.index != kNever && exec.before(a.end, b.start);
}

// Whether the kinds of two overlapping accesses can conflict at all: nullptr when compatible, else
// the reason to report ("" for the tables, or why two accumulates are not atomic together).
const char* kinds_conflict(const Access& a, const Access& b) {
    // Two accumulate-family operations are atomic per element when they use the same op (or one
    // is MPI_NO_OP) on identically aligned elements of one basic type (MPI-3.1 11.7.1, the default
    // accumulate_ops same_op_no_op); otherwise they conflict like any two writes.
    if (a.atomic && b.atomic)
        return accumulate_conflict({a.side.op, a.side.basic, a.elem}, {b.side.op, b.side.basic, b.elem}, a.bytes, b.bytes);
    return across_processes(a.side.kind, b.side.kind) == Compat::both ? nullptr : "";
}

// Two accumulate-family operations from one origin to the same target location are applied in the
// order they were issued, for the kinds of pair the window's accumulate_ordering names (MPI-3.1
// 11.7.2; the default names all four) -- "on a per-datatype granularity": only when both use the same
// basic type. With different basic types (MPI_FLOAT then MPI_INT) neither this order nor atomicity
// (11.7.1) holds, so they race like accumulates of two origins. Whether each pair was issued in order
// is the caller's question; here: whether the window orders both possible orders of them.
bool accumulates_ordered(const Access& a, const Access& b) {
    if (!a.atomic || !b.atomic || a.side.is_pc || b.side.is_pc || a.side.rank != b.side.rank) return false;
    if (basic_type_conflict({a.side.op, a.side.basic, a.elem}, {b.side.op, b.side.basic, b.elem})) return false;
    auto writes = [](const Access& x) { return x.side.kind == AccessKind::acc; };  // MPI_NO_OP: kind get
    auto reads = [](const Access& x) { return x.fetches || x.side.kind == AccessKind::get; };
    auto needed = [&](const Access& first, const Access& second) {
        uint8_t bits = 0;
        if (writes(first) && writes(second)) bits |= trace::acc_waw;
        if (writes(first) && reads(second)) bits |= trace::acc_raw;
        if (reads(first) && writes(second)) bits |= trace::acc_war;
        return bits;
    };
    const uint8_t need = needed(a, b) | needed(b, a);
    return (a.acc_ordering & need) == need;  // one origin, one window: b's ordering is a's
}

// Lock epochs on the same target exclude each other when one is exclusive.
bool locks_exclude(const Access& a, const Access& b) {
    return a.start.slot != b.start.slot && a.lock >= 0 && b.lock >= 0 && (a.lock == 1 || b.lock == 1);
}

// Accesses alike in everything the check looks at but time (who, where in the code, what, which
// bytes, under which lock), each ordered after the one before: a loop's repetitions. Kept as one
// chain, a later access is checked against all of them with two binary searches instead of one by
// one; with the same bytes hit in every iteration the sweep was quadratic (halo: 4.5 -> 28 us per
// event from 1/4 to all of the iterations). The members that neither happen before the access
// (a prefix of the chain) nor after it (a suffix) are exactly those concurrent with it.
struct Chain {
    Range r;
    std::vector<const Access*> members;
};

using ChainKey = std::tuple<uint64_t, uint64_t, int, int, uint64_t, bool, Name, Name, int, bool,
                            uint32_t, int, int>;

ChainKey key_of(const Access& a, Range r) {
    return {r.lo, r.hi, static_cast<int>(a.side.kind), a.side.rank, a.side.site, a.side.is_pc, a.side.op,
            a.side.basic, a.side.thread, a.atomic, a.elem, a.lock, a.start.slot};
}

struct Item {
    Range r;
    const Access* a;
};

void sweep(const Execution& exec, const std::vector<const Access*>& list, int win, int target, Collector& out) {
    std::vector<Item> items;
    for (const Access* a : list)
        for (const auto& r : a->bytes) items.push_back({r, a});
    // By start; alike accesses in program order, so that a loop's repetitions arrive in turn.
    std::sort(items.begin(), items.end(), [](const Item& x, const Item& y) {
        return std::tie(x.r.lo, x.r.hi, x.a->start.slot, x.a->start.index) <
               std::tie(y.r.lo, y.r.hi, y.a->start.slot, y.a->start.index);
    });
    std::vector<std::unique_ptr<Chain>> read_ops, write_ops, read_locals, write_locals;  // active
    std::map<ChainKey, Chain*> open_chain;  // the chain an alike access may extend
    std::set<std::pair<const Access*, const Access*>> seen;  // a pair overlapping in several blocks is one
    auto prune = [&](std::vector<std::unique_ptr<Chain>>& v, uint64_t lo) {
        auto ended = [lo](const std::unique_ptr<Chain>& c) { return c->r.hi <= lo; };
        for (const auto& c : v)
            if (ended(c)) open_chain.erase(key_of(*c->members.front(), c->r));
        v.erase(std::remove_if(v.begin(), v.end(), ended), v.end());
    };
    auto check = [&](const Chain& c, const Item& y) {
        const Access& b = *y.a;
        const auto& m = c.members;
        if (m.size() == 1) {
            const Access& a = *m.front();
            if (&a == &b) return;
            if ((a.bytes.size() > 1 || b.bytes.size() > 1) && !seen.insert(std::minmax(&a, &b)).second) return;
        }
        // Everything but time is alike along the chain, so its first member tells whether the kinds
        // conflict and the locks exclude; then the concurrent members are [first not before b, first
        // after b).
        const char* why = kinds_conflict(*m.front(), b);
        if (!why || locks_exclude(*m.front(), b)) return;
        auto lo = std::partition_point(m.begin(), m.end(), [&](const Access* a) { return ordered(exec, *a, b); });
        auto hi = std::partition_point(lo, m.end(), [&](const Access* a) { return !ordered(exec, b, *a); });
        if (accumulates_ordered(*m.front(), b)) {
            // Issued in order either way round: applied in that order. The chain's starts are in
            // happens-before order, so those issued before b are a prefix and those after a suffix.
            lo = std::partition_point(lo, hi, [&](const Access* a) { return exec.before(a->start, b.start); });
            hi = std::partition_point(lo, hi, [&](const Access* a) { return !exec.before(b.start, a->start); });
        }
        if (lo == hi) return;
        Range where{std::max(c.r.lo, y.r.lo), std::min(c.r.hi, y.r.hi)};
        out.add({true, (*lo)->side, b.side, win, target, where, 1, why}, static_cast<size_t>(hi - lo));
    };
    auto add_to = [&](std::vector<std::unique_ptr<Chain>>& v, const Item& item) {
        const Access& a = *item.a;
        // Only single-block accesses whose own start happens before their end chain (a multi-block
        // access meets another in several blocks, counted once through `seen`).
        const bool chainable = a.bytes.size() == 1 && a.end.index != kNever && exec.before(a.start, a.end);
        if (chainable) {
            auto key = key_of(a, item.r);
            auto it = open_chain.find(key);
            if (it != open_chain.end() && ordered(exec, *it->second->members.back(), a)) {
                it->second->members.push_back(&a);
                return;
            }
            v.push_back(std::make_unique<Chain>(Chain{item.r, {&a}}));
            open_chain[key] = v.back().get();
            return;
        }
        v.push_back(std::make_unique<Chain>(Chain{item.r, {&a}}));
    };
    // Two reads (get, load) are compatible in every case, so a read is only checked against the
    // active writes: a rank polling the same bytes with thousands of Gets stays linear.
    auto reads = [](const Item& i) { return i.a->side.kind == AccessKind::get || i.a->side.kind == AccessKind::load; };
    uint64_t swept_to = 0;
    for (const auto& item : items) {
        if (item.r.lo > swept_to)  // nothing more can end before an unchanged start
            for (auto* v : {&read_ops, &write_ops, &read_locals, &write_locals}) prune(*v, item.r.lo);
        swept_to = item.r.lo;
        const bool op = !item.a->side.is_pc, read = reads(item);
        for (const auto& other : write_ops) check(*other, item);
        if (!read)
            for (const auto& other : read_ops) check(*other, item);
        if (op) {
            for (const auto& other : write_locals) check(*other, item);
            if (!read)
                for (const auto& other : read_locals) check(*other, item);
        }
        add_to(op ? (read ? read_ops : write_ops) : (read ? read_locals : write_locals), item);
    }
}

}  // namespace

std::vector<Finding> find_races(const Execution& exec) {
    const auto& traces = exec.traces();
    std::vector<Access> accesses;
    size_t operations = 0;
    for (const auto& t : traces) operations += t.rma_calls;
    accesses.reserve(operations);  // each RMA operation is one access: no regrowth of a vector of millions
    Collector out;

    for (size_t s = 0; s < traces.size(); ++s) {
        const RankTrace& t = traces[s];
        int slot = static_cast<int>(s);
        std::vector<std::pair<Access, size_t>> open;  // remote accesses not yet completed, with event index
        std::vector<OriginUse> uses;                  // origin buffers not yet completed locally
        const bool threaded = !t.events.empty() && exec.thread_number({slot, 0}) > 0;
        std::vector<std::pair<OriginUse, EventRef>> done_uses;  // threaded: completed uses, with the completion
        std::map<std::pair<uint32_t, int>, int> locks;  // (win, target) -> lock type
        std::map<uint32_t, bool> lock_all;
        // Threads ordered apart (OpenMP): a flush or unlock completes an operation of another thread
        // only when it happens after the operation's call (MPI completes what was issued before the
        // flush was called, and only happens-before tells that the call came first). The first
        // completion in the trace need not be that one: a thread's Put, another thread's flush, then
        // the thread's own flush and its next Put to the same bytes -- the Put ended at the other
        // thread's flush was unordered with the next one, a race reported between a thread's own Puts.
        auto completes = [&](EventRef start, size_t j) { return !threaded || exec.before(start, {slot, j}); };
        auto complete = [&](size_t j, auto pred, bool remote) {
            // One pass that keeps the others in order (erasing one at a time was quadratic in a batch).
            size_t kept = 0;
            for (size_t k = 0; remote && k < open.size(); ++k) {
                if (pred(t.events[open[k].second]) && completes(open[k].first.start, j)) {
                    open[k].first.end = {slot, j};
                    accesses.push_back(std::move(open[k].first));
                } else {
                    if (kept != k) open[kept] = std::move(open[k]);
                    ++kept;
                }
            }
            if (remote) open.erase(open.begin() + static_cast<std::ptrdiff_t>(kept), open.end());
            // A use completed here concerns no later event of its thread: dropped, so long runs stay
            // linear. Threads ordered apart (OpenMP): another thread's later event is ordered after the
            // completion only through synchronisation, so the last completed uses are kept and checked.
            uses.erase(std::remove_if(uses.begin(), uses.end(),
                                      [&](const OriginUse& u) {
                                          if (!pred(t.events[u.start.index]) || !completes(u.start, j))
                                              return false;
                                          if (threaded) done_uses.push_back({u, {slot, j}});
                                          return true;
                                      }),
                       uses.end());
            if (done_uses.size() > kKeptDone) done_uses.erase(done_uses.begin(), done_uses.end() - kKeptDone);
        };
        // The uses an event at i meets: pending ones, and (threads ordered apart) completed ones whose
        // completion does not happen before it.
        auto meets = [&](size_t i, auto each) {
            for (const auto& u : uses) each(u);
            for (const auto& [u, done] : done_uses)
                if (!exec.before(done, {slot, i})) each(u);
        };
        for (size_t i = 0; i < t.events.size(); ++i) {
            const Event& e = t.events[i];
            if (e.type == Rec::rma) {
                auto kind = kind_of(static_cast<RmaKind>(e.kind), e.op);
                Side side{kind, t.rank, e.site, false, e.op, e.basic, exec.thread_number({slot, i})};
                // Within the epoch: this operation against earlier ones still pending at this origin.
                OriginUse use{side, {slot, i}, sorted(e.origin), sorted(e.result)};
                meets(i, [&](const OriginUse& u) {
                    if (!u.may_meet(use.lo, use.hi)) return;
                    Range where{};
                    bool hit = (overlap(u.written, use.written, &where) || overlap(u.written, use.read, &where) ||
                                overlap(u.read, use.written, &where));
                    if (hit && within_epoch(u.side.kind, kind) != Compat::both)
                        out.add({false, u.side, side, exec.window_number(slot, e.win), t.rank, where, 1, ""});
                });
                uses.push_back(use);
                Access a;
                a.side = side;
                a.atomic = is_atomic(static_cast<RmaKind>(e.kind));
                a.fetches = a.atomic && static_cast<RmaKind>(e.kind) != RmaKind::acc;
                a.elem = e.elem;
                a.start = {slot, i};
                a.end = {slot, kNever};
                a.win = exec.window_number(slot, e.win);
                a.target = exec.world_of_win_rank(slot, e.win, e.target);
                auto w = t.wins.find(e.win);
                bool dynamic = w != t.wins.end() && w->second.flavor == 3;
                a.acc_ordering = w != t.wins.end() ? w->second.acc_ordering : static_cast<uint8_t>(trace::acc_all);
                int tslot = exec.slot_of_world(a.target);
                int64_t unit = 1;
                if (!dynamic) {
                    unit = w != t.wins.end() ? w->second.disp_unit : 1;
                    if (tslot >= 0)  // the target's own displacement unit
                        for (const auto& [id, desc] : traces[static_cast<size_t>(tslot)].wins)
                            if (exec.window_number(tslot, id) == a.win) unit = desc.disp_unit;
                }
                uint64_t base = static_cast<uint64_t>(e.disp * unit);
                for (const auto& r : e.target_bytes) a.bytes.push_back({base + r.lo, base + r.hi});
                a.bytes = sorted(a.bytes);
                auto l = locks.find({e.win, e.target});
                a.lock = l != locks.end() ? l->second : (lock_all[e.win] ? 0 : -1);
                open.emplace_back(std::move(a), i);
            } else if (e.type == Rec::sync) {
                auto kind = static_cast<SyncKind>(e.kind);
                uint32_t win = e.win;
                int target = e.target;
                auto on_win = [win](const Event& op) { return op.win == win; };
                auto on_target = [win, target](const Event& op) { return op.win == win && op.target == target; };
                switch (kind) {
                case SyncKind::lock: locks[{win, target}] = e.lock_type; break;
                case SyncKind::lock_all: lock_all[win] = true; break;
                case SyncKind::unlock: complete(i, on_target, true); locks.erase({win, target}); break;
                case SyncKind::unlock_all: complete(i, on_win, true); lock_all[win] = false; break;
                case SyncKind::fence: case SyncKind::complete: case SyncKind::flush_all:
                    complete(i, on_win, true);
                    break;
                case SyncKind::flush: complete(i, on_target, true); break;
                case SyncKind::flush_local: complete(i, on_target, false); break;
                case SyncKind::flush_local_all: complete(i, on_win, false); break;
                default: break;
                }
            } else if (e.type == Rec::req_done && !e.is_recv) {
                uint64_t req = e.request;
                auto mine = [req](const Event& op) { return op.type == Rec::rma && op.request == req; };
                // Rget and Rget_accumulate requests complete when the result has arrived, so the access at
                // the target is done; Rput/Raccumulate requests complete locally only.
                bool fetched = false;
                for (const auto& [a, idx] : open)
                    if (t.events[idx].request == req)
                        fetched = t.events[idx].kind == static_cast<uint8_t>(RmaKind::get) ||
                                  t.events[idx].kind == static_cast<uint8_t>(RmaKind::get_acc);
                complete(i, mine, fetched);
            } else if (e.type == Rec::win_free) {
                uint32_t win = e.win;
                complete(i, [win](const Event& op) { return op.win == win; }, true);
            } else if (e.type == Rec::local) {
                AccessKind kind = e.write ? AccessKind::store : AccessKind::load;
                Side side{kind, t.rank, e.site, true, "", "", exec.thread_number({slot, i})};
                std::vector<Range> bytes{{e.addr, e.addr + std::max<uint32_t>(e.size, 1)}};
                meets(i, [&](const OriginUse& u) {
                    if (!u.may_meet(bytes[0].lo, bytes[0].hi)) return;
                    Range where{};
                    if (overlap(u.written, bytes, &where) && within_epoch(AccessKind::get, kind) != Compat::both)
                        out.add({false, u.side, side, exec.window_number(slot, t.events[u.start.index].win), t.rank,
                                 where, 1, ""});
                    else if (overlap(u.read, bytes, &where) && within_epoch(u.side.kind, kind) != Compat::both)
                        out.add({false, u.side, side, exec.window_number(slot, t.events[u.start.index].win), t.rank,
                                 where, 1, ""});
                });
                // Window memory of this rank (precise mode): a target-side access.
                for (const auto& [id, w] : t.wins) {
                    std::vector<Range> mem = w.flavor == 3 ? w.attached : std::vector<Range>{{w.base, w.base + w.size}};
                    for (const auto& m : mem) {
                        if (e.addr < m.lo || e.addr >= m.hi) continue;
                        Access a;
                        a.side = side;
                        a.start = a.end = {slot, i};
                        a.win = exec.window_number(slot, id);
                        a.target = t.rank;
                        uint64_t off = w.flavor == 3 ? 0 : w.base;
                        a.bytes = {{bytes[0].lo - off, bytes[0].hi - off}};
                        a.lock = -1;  // a lock this rank holds on its own window memory
                        for (const auto& [key, type] : locks)
                            if (key.first == id && exec.world_of_win_rank(slot, id, key.second) == t.rank)
                                a.lock = type;
                        accesses.push_back(a);
                    }
                }
            }
        }
        for (auto& [a, idx] : open) accesses.push_back(std::move(a));  // never completed: concurrent with everything after
    }

    // Across processes: pairs of accesses to the same window memory whose bytes overlap, found by a
    // sweep over byte ranges sorted by start (loads/stores of one process are never paired).
    std::map<std::pair<int, int>, std::vector<const Access*>> by_memory;
    for (const auto& a : accesses)
        if (a.target >= 0) by_memory[{a.win, a.target}].push_back(&a);
    for (auto& [mem, list] : by_memory) sweep(exec, list, mem.first, mem.second, out);
    std::vector<Finding> result;
    for (auto& [k, f] : out.found) result.push_back(f);
    return result;
}

}  // namespace rmacheck
