// See extrapolate.h.
#include "tools/tracer/extrapolate.h"

#include <numeric>
#include <unordered_map>

#include "tools/tracer/collective_rounds.h"

namespace jobtrace {

namespace {

bool has_partner(Kind k) {
    return k == Kind::send || k == Kind::recv || k == Kind::isend || k == Kind::irecv || k == Kind::complete ||
           k == Kind::sendrecv_send || k == Kind::sendrecv_recv;
}
bool has_root(Kind k) { return k == Kind::bcast || k == Kind::reduce || k == Kind::gather || k == Kind::scatter; }
bool is_send(Kind k) { return k == Kind::send || k == Kind::isend || k == Kind::sendrecv_send; }
bool is_receive(Kind k) { return k == Kind::recv || k == Kind::irecv || k == Kind::sendrecv_recv; }

std::string str(std::int64_t v) { return std::to_string(v); }

// The offset of `peer` from `rank` modulo p, in 0..p-1.
std::uint32_t ring_offset(std::int32_t peer, std::uint32_t rank, std::uint32_t p) {
    return static_cast<std::uint32_t>(((static_cast<std::int64_t>(peer) - rank) % p + p) % p);
}

// How record `a` of rank ra differs from record `b` of rank rb when partners are compared as
// offsets (modulo p for a ring); "" when they are the same call.
std::string differs(const Record& a, std::uint32_t ra, const Record& b, std::uint32_t rb, bool ring,
                    std::uint32_t p) {
    const Kind kind = static_cast<Kind>(a.kind);
    if (a.kind != b.kind) return std::string(kind_name(kind)) + " against " + kind_name(static_cast<Kind>(b.kind));
    if (a.tag != b.tag || a.flags != b.flags) return std::string(kind_name(kind)) + " with another tag";
    if (a.comm != b.comm) return std::string(kind_name(kind)) + " on another communicator";
    if (has_root(kind) && a.peer != b.peer) return std::string(kind_name(kind)) + " with another root";
    if (!has_partner(kind) || (a.peer < 0 && b.peer < 0 && a.peer == b.peer)) return "";
    if (a.peer < 0 || b.peer < 0) return std::string(kind_name(kind)) + " with and without a partner";
    const bool same = ring ? ring_offset(a.peer, ra, p) == ring_offset(b.peer, rb, p)
                           : static_cast<std::int64_t>(a.peer) - ra == static_cast<std::int64_t>(b.peer) - rb;
    return same ? "" : std::string(kind_name(kind)) + " to or from rank " + str(a.peer) + " against rank " + str(b.peer);
}

// "" when ranks a and b make the same calls with the same partner offsets; else the first difference.
std::string pattern_difference(const RankTrace& a, const RankTrace& b, bool ring, std::uint32_t p) {
    if (a.records.size() != b.records.size())
        return str(static_cast<std::int64_t>(a.records.size())) + " calls against " +
               str(static_cast<std::int64_t>(b.records.size()));
    for (std::size_t i = 0; i < a.records.size(); ++i) {
        std::string d = differs(a.records[i], a.rank, b.records[i], b.rank, ring, p);
        if (!d.empty()) return "call " + str(static_cast<std::int64_t>(i) + 1) + ": " + d;
    }
    return "";
}

}  // namespace

Extrapolation::Extrapolation(const std::vector<RankTrace>& traces, std::uint32_t target, ScaleRule rule)
    : traces_(traces), traced_(static_cast<std::uint32_t>(traces.size())), target_(target), rule_(rule) {
    const std::string p = str(traced_), pp = str(target);
    if (traced_ == 0) throw ExtrapolationError("no traced rank to extrapolate");
    if (target == 0) throw ExtrapolationError("--scale must be at least 1");
    for (std::uint32_t r = 0; r < traced_; ++r)
        if (traces[r].rank != r || traces[r].world_size != traced_)
            throw ExtrapolationError("the trace of rank " + str(r) + " of " + p +
                                     " is missing or unreadable: only a whole job can be extrapolated");
    // Collectives span all P' ranks, so they must span all P ranks, in rank order.
    std::vector<std::int32_t> world(traced_);
    std::iota(world.begin(), world.end(), 0);
    for (const RankTrace& t : traces)
        for (const Record& r : t.records)
            if (is_collective(static_cast<Kind>(r.kind)) && t.comms.at(r.comm) != world)
                throw ExtrapolationError(
                    "rank " + str(t.rank) + " calls " + kind_name(static_cast<Kind>(r.kind)) +
                    " on a communicator of " + str(static_cast<std::int64_t>(t.comms.at(r.comm).size())) + " of the " +
                    p + " ranks (MPI_Comm_split, _create, ...): its members at " + pp +
                    " ranks cannot be derived; --scale carries collectives on MPI_COMM_WORLD and on communicators "
                    "of all its ranks in rank order only");

    if (rule == ScaleRule::replicate) {
        if (target % traced_ != 0)
            throw ExtrapolationError("--scale-rule replicate makes whole copies of the " + p + " traced ranks: " + pp +
                                     " is not a multiple of " + p);
        how_ = "replicated " + str(target / traced_) + " times (LogGOPSim's schedgen --traces-extr): rank r + " + p +
               " e is traced rank r; point-to-point stays within each copy, collectives span all " + pp + " ranks";
    } else {
        // A ring: every rank the same calls with the same offsets modulo P, none of them P/2 away
        // (there +P/2 and -P/2 are the same rank, and which one it is at P' cannot be told).
        std::string not_ring;
        for (std::uint32_t r = 1; r < traced_ && not_ring.empty(); ++r) {
            std::string d = pattern_difference(traces[r], traces[0], true, traced_);
            if (!d.empty()) not_ring = "ranks " + str(r) + " and 0 differ at " + d;
        }
        for (const RankTrace& t : traces)
            for (const Record& rec : t.records)
                if (not_ring.empty() && traced_ % 2 == 0 && rec.peer >= 0 && has_partner(static_cast<Kind>(rec.kind)) &&
                    ring_offset(rec.peer, t.rank, traced_) == traced_ / 2)
                    not_ring = "rank " + str(t.rank) + " meets rank " + str(rec.peer) + ", " + str(traced_ / 2) +
                               " away: at P' it cannot be told whether forwards or backwards";
        ring_ = not_ring.empty();
        if (ring_) {
            how_ = "a ring: rank r of " + pp + " is traced rank r mod " + p + ", its partners at the same offsets modulo " + pp;
        } else {
            // A chain: the run of ranks around the middle that share the middle rank's pattern.
            const std::uint32_t mid = traced_ / 2;
            std::uint32_t lo = mid, hi = mid;
            while (lo > 0 && pattern_difference(traces[lo - 1], traces[mid], false, traced_).empty()) --lo;
            while (hi + 1 < traced_ && pattern_difference(traces[hi + 1], traces[mid], false, traced_).empty()) ++hi;
            head_ = lo;
            tail_ = traced_ - 1 - hi;
            if (traced_ < 3 || head_ == 0 || tail_ == 0)
                throw ExtrapolationError(
                    "the " + p + " traced ranks are neither a ring (the same calls at the same offsets modulo " + p +
                    ", no partner half the ranks away; here " + not_ring +
                    ") nor a chain (two ends and an interior of ranks with the same calls at the same offsets; "
                    "that needs at least 3 traced ranks): trace more ranks, or use --scale-rule replicate");
            if (target < head_ + tail_ + 1 && target != traced_)
                throw ExtrapolationError("the chain's ends are " + str(head_) + " + " + str(tail_) +
                                         " ranks: --scale must be at least " + str(head_ + tail_ + 1));
            how_ = "a chain: traced ranks 0.." + str(head_ - 1) + " and " + str(hi + 1) + ".." + str(traced_ - 1) +
                   " are its ends, kept at both ends of " + pp + "; traced ranks " + str(lo) + ".." + str(hi) +
                   " (the same calls at the same offsets) are repeated in between, in turn";
        }
    }
    for (const RankTrace& t : traces)
        for (const Record& r : t.records)
            if (has_root(static_cast<Kind>(r.kind)) && r.peer >= 0 && root(r.peer) < 0)
                throw ExtrapolationError("rank " + str(t.rank) + "'s " + kind_name(static_cast<Kind>(r.kind)) +
                                         " has root " + str(r.peer) + ", which " + pp + " ranks do not have");
    check_messages_match();
}

std::uint32_t Extrapolation::template_of(std::uint32_t r) const {
    if (rule_ == ScaleRule::replicate || ring_) return r % traced_;
    if (r < head_) return r;
    if (r >= target_ - tail_) return traced_ - (target_ - r);
    const std::uint32_t interior = traced_ - head_ - tail_;
    return head_ + (r - head_) % interior;
}

// A collective's root is a rank, not an offset: it stays, except that a chain's last ranks stay
// last. -1 when P' has no such rank.
std::int32_t Extrapolation::root(std::int32_t traced_root) const {
    const bool at_end = rule_ == ScaleRule::offsets && !ring_ && static_cast<std::uint32_t>(traced_root) >= traced_ - tail_;
    const std::int64_t at = at_end ? static_cast<std::int64_t>(target_) - (traced_ - traced_root) : traced_root;
    return at >= 0 && at < target_ ? static_cast<std::int32_t>(at) : -1;
}

// The partner at P' of rank r, whose traced rank met `traced_peer`; -1 when it has none there.
std::int32_t Extrapolation::partner(std::int32_t traced_peer, std::uint32_t traced_rank, std::uint32_t r) const {
    std::int64_t at;
    if (rule_ == ScaleRule::replicate)
        at = traced_peer + static_cast<std::int64_t>(r / traced_) * traced_;
    else if (ring_) {
        const std::uint32_t off = ring_offset(traced_peer, traced_rank, traced_);
        const std::int64_t signed_off = off < (traced_ + 1) / 2 ? off : static_cast<std::int64_t>(off) - traced_;
        at = ((r + signed_off) % target_ + target_) % target_;
    } else {
        at = static_cast<std::int64_t>(r) + traced_peer - traced_rank;
    }
    return at >= 0 && at < target_ ? static_cast<std::int32_t>(at) : -1;
}

RankTrace Extrapolation::rank(std::uint32_t r) const {
    const RankTrace& t = traces_[template_of(r)];
    RankTrace out;
    out.file = t.file;
    out.rank = r;
    out.world_size = target_;
    out.records = t.records;
    for (Record& rec : out.records) {
        const Kind kind = static_cast<Kind>(rec.kind);
        if (has_partner(kind) && rec.peer >= 0)
            rec.peer = partner(rec.peer, t.rank, r);
        else if (has_root(kind) && rec.peer >= 0)
            rec.peer = root(rec.peer);
    }
    std::vector<std::int32_t> all(target_);
    std::iota(all.begin(), all.end(), 0);
    for (const auto& [id, members] : t.comms)
        if (members.size() == traced_) out.comms[id] = all;  // in rank order: checked in the constructor
    return out;
}

std::uint64_t Extrapolation::records() const {
    std::uint64_t n = 0;
    for (std::uint32_t r = 0; r < target_; ++r) n += traces_[template_of(r)].records.size();
    return n;
}

// Every message sent at P' meets a receive from that source with that tag: counts per
// (source, destination, tag) must balance. Receives from any source or with any tag count as
// the message their completion names.
void Extrapolation::check_messages_match() const {
    struct Key {
        std::uint64_t pair;
        std::int32_t tag;
        bool operator==(const Key& o) const { return pair == o.pair && tag == o.tag; }
    };
    struct Hash {
        std::size_t operator()(const Key& k) const { return std::hash<std::uint64_t>()(k.pair * 31 + static_cast<std::uint32_t>(k.tag)); }
    };
    std::unordered_map<Key, std::int64_t, Hash> balance;
    const std::string pp = str(target_);
    for (std::uint32_t r = 0; r < target_; ++r) {
        const RankTrace t = rank(r);
        const RankTrace& traced = traces_[template_of(r)];
        std::unordered_map<std::uint32_t, std::pair<std::int32_t, std::int32_t>> matched;  // request -> source, tag
        for (const Record& rec : t.records)
            if (static_cast<Kind>(rec.kind) == Kind::complete && rec.peer >= 0) matched[rec.request] = {rec.peer, rec.tag};
        for (std::size_t i = 0; i < t.records.size(); ++i) {
            const Record& rec = t.records[i];
            const Kind kind = static_cast<Kind>(rec.kind);
            if (!is_send(kind) && !is_receive(kind)) continue;
            std::int32_t peer = rec.peer, tag = rec.tag;
            if (kind == Kind::irecv && (traced.records[i].peer == -1 || tag == -1)) {
                auto m = matched.find(rec.request);
                if (m == matched.end()) continue;  // never completed: nothing waits for it
                if (traced.records[i].peer == -1) peer = m->second.first;
                if (tag == -1) tag = m->second.second;
            }
            if (traced.records[i].peer == -2) continue;  // MPI_PROC_NULL
            if (peer < 0)
                throw ExtrapolationError("at " + pp + " ranks, rank " + str(r) + " (traced rank " +
                                         str(traced.rank) + ") would " + (is_send(kind) ? "send to" : "receive from") +
                                         " traced rank " + str(traced.records[i].peer) +
                                         "'s counterpart, which is outside 0.." + str(target_ - 1) + ": " + how_ +
                                         " does not fit this pattern");
            const auto src = is_send(kind) ? r : static_cast<std::uint32_t>(peer);
            const auto dst = is_send(kind) ? static_cast<std::uint32_t>(peer) : r;
            balance[{static_cast<std::uint64_t>(src) * target_ + dst, tag}] += is_send(kind) ? 1 : -1;
        }
    }
    for (const auto& [key, n] : balance)
        if (n != 0)
            throw ExtrapolationError(
                "at " + pp + " ranks, rank " + str(static_cast<std::int64_t>(key.pair / target_)) + " sends " +
                (n > 0 ? str(n) + " more" : str(-n) + " fewer") + " messages with tag " + str(key.tag) + " to rank " +
                str(static_cast<std::int64_t>(key.pair % target_)) + " than it receives from it: the traced pattern is " +
                "not " + (rule_ == ScaleRule::replicate ? "closed within the traced job" : "a regular ring or chain") +
                " (a 2-D or 3-D decomposition, or partners that depend on the data, cannot be extrapolated by offsets; "
                "try --scale-rule replicate)");
}

}  // namespace jobtrace
