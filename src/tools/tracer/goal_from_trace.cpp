// See goal_from_trace.h.
#include "tools/tracer/goal_from_trace.h"

#include <algorithm>
#include <unordered_map>

#include "tools/tracer/collective_rounds.h"

namespace jobtrace {

namespace sim = jobsentry::sim;

namespace {

// What the whole conversion shares: the builder, which ranks are in, the tags of the
// collectives' communicators, and counts for the notes.
struct Job {
    sim::ScheduleBuilder builder;
    std::vector<bool> present;
    std::map<std::vector<std::int32_t>, std::int32_t> collective_tags;
    std::uint64_t dropped_messages = 0, synchronous_sends = 0, lost_roots = 0, never_completed = 0;
    Allreduce allreduce;

    Job(std::uint32_t world, std::uint64_t expected_ops, Allreduce algorithm)
        : builder(world, expected_ops), present(world, false), allreduce(algorithm) {}
    bool in(std::int32_t rank) const {
        return rank >= 0 && static_cast<std::size_t>(rank) < present.size() && present[static_cast<std::size_t>(rank)];
    }
};

struct Dep {
    std::uint32_t op;
    bool at_start;
};

// One rank's ops in program order: `deps` are what the next op waits for.
class RankOrder {
public:
    RankOrder(Job& job, const RankTrace& trace) : job_(job), t_(trace), rank_(trace.rank) {}

    void run() {
        const std::unordered_map<std::uint32_t, Matched> matched = completed_receives();
        bool have_end = false;
        std::uint64_t last_end = 0;
        std::vector<Dep> sendrecv_entry;
        for (const Record& r : t_.records) {
            const Kind kind = static_cast<Kind>(r.kind);
            if (have_end && r.start > last_end) then({job_.builder.calc(rank_, r.start - last_end)});
            have_end = true;
            last_end = std::max(last_end, r.end);
            switch (kind) {
            case Kind::send:
                if (r.flags & kSynchronous) ++job_.synchronous_sends;
                [[fallthrough]];
            case Kind::recv: message(kind == Kind::send, r.peer, r.bytes, r.tag, false); break;
            case Kind::isend: started(r.request, message(true, r.peer, r.bytes, r.tag, true)); break;
            case Kind::irecv: {
                // MPI_ANY_SOURCE / MPI_ANY_TAG (-1 in the trace) become what the completion matched.
                auto m = matched.find(r.request);
                const std::int32_t from = r.peer == -1 && m != matched.end() ? m->second.peer : r.peer;
                const std::int32_t tag = r.tag == -1 && m != matched.end() ? m->second.tag : r.tag;
                started(r.request, message(false, from, r.bytes, tag, true));
                break;
            }
            case Kind::complete: completed(r.request); break;
            case Kind::sendrecv_send:
                sendrecv_entry = deps_;
                message(true, r.peer, r.bytes, r.tag, false);
                break;
            case Kind::sendrecv_recv: {
                std::vector<Dep> after_send = deps_;
                deps_ = sendrecv_entry;
                message(false, r.peer, r.bytes, r.tag, false);
                deps_.insert(deps_.end(), after_send.begin(), after_send.end());
                break;
            }
            default:
                if (is_collective(kind)) collective(kind, r);
            }
        }
        job_.never_completed += pending_.size();
    }

private:
    // The source and tag each Irecv matched, from its completion record.
    struct Matched {
        std::int32_t peer, tag;
    };
    std::unordered_map<std::uint32_t, Matched> completed_receives() const {
        std::unordered_map<std::uint32_t, Matched> out;
        for (const Record& r : t_.records)
            if (static_cast<Kind>(r.kind) == Kind::complete && r.peer >= 0) out[r.request] = {r.peer, r.tag};
        return out;
    }

    std::uint32_t add(std::uint32_t op) {
        for (const Dep& d : deps_) d.at_start ? job_.builder.after_start(op, d.op) : job_.builder.after_end(op, d.op);
        return op;
    }

    // Every op in `ops` waits for deps_; the next op waits for their end.
    void then(const std::vector<std::uint32_t>& ops) {
        for (std::uint32_t op : ops) add(op);
        deps_.clear();
        for (std::uint32_t op : ops) deps_.push_back({op, false});
    }

    // A point-to-point message; kNoOp when it has no peer in the schedule.
    static constexpr std::uint32_t kNoOp = ~0u;
    std::uint32_t message(bool send, std::int32_t peer, std::uint64_t bytes, std::int32_t tag, bool nonblocking) {
        if (peer == -2) return kNoOp;  // MPI_PROC_NULL
        if (peer != -1 && !job_.in(peer)) {
            ++job_.dropped_messages;
            return kNoOp;
        }
        std::uint32_t op = send ? job_.builder.send(rank_, static_cast<std::uint32_t>(peer), bytes, tag)
                                : job_.builder.recv(rank_, peer == -1 ? sim::kAnySource : peer, bytes, tag);
        if (!nonblocking) {
            then({op});
            return op;
        }
        add(op);
        deps_ = {{op, true}};  // the next call starts after this one started
        return op;
    }

    void started(std::uint32_t request, std::uint32_t op) {
        if (op != kNoOp) pending_[request] = op;
    }

    void completed(std::uint32_t request) {
        auto it = pending_.find(request);
        if (it == pending_.end()) return;  // a dropped message's request
        deps_.push_back({it->second, false});
        pending_.erase(it);
    }

    // A communicator as this rank's collectives see it: its members present, its tag, our position.
    // Made once per communicator: at an extrapolated scale it has P' members.
    struct CommView {
        std::vector<std::int32_t> members;
        std::int32_t tag = 0;
        std::uint32_t me = 0;
        bool in = false;
    };
    const CommView& view(std::uint16_t comm) {
        auto [it, added] = views_.try_emplace(comm);
        CommView& v = it->second;
        if (!added) return v;
        for (std::int32_t m : t_.comms.at(comm))
            if (job_.in(m)) v.members.push_back(m);
        auto me = std::find(v.members.begin(), v.members.end(), static_cast<std::int32_t>(rank_));
        v.in = me != v.members.end();
        v.me = static_cast<std::uint32_t>(me - v.members.begin());
        v.tag = job_.collective_tags
                    .try_emplace(v.members, kCollectiveTagBase + static_cast<std::int32_t>(job_.collective_tags.size()))
                    .first->second;
        return v;
    }

    void collective(Kind kind, const Record& r) {
        const CommView& v = view(r.comm);
        if (!v.in) return;
        const bool rooted = kind == Kind::bcast || kind == Kind::reduce || kind == Kind::gather || kind == Kind::scatter;
        std::uint32_t root = 0;
        if (rooted) {
            // Members are in rank order in the common case (world and its duplicates): look there first.
            const auto at = static_cast<std::size_t>(r.peer);
            if (r.peer >= 0 && at < v.members.size() && v.members[at] == r.peer) {
                root = static_cast<std::uint32_t>(at);
            } else {
                auto it = std::find(v.members.begin(), v.members.end(), r.peer);
                if (it == v.members.end()) ++job_.lost_roots;
                else root = static_cast<std::uint32_t>(it - v.members.begin());
            }
        }
        const auto rounds = collective_rounds(kind, static_cast<std::uint32_t>(v.members.size()), v.me, root, r.bytes,
                                              job_.allreduce);
        for (const Round& round : rounds) {
            std::vector<std::uint32_t> ops;
            for (const Message& m : round) {
                const auto peer = static_cast<std::uint32_t>(v.members[m.peer]);
                ops.push_back(m.send ? job_.builder.send(rank_, peer, m.bytes, v.tag)
                                     : job_.builder.recv(rank_, static_cast<std::int32_t>(peer), m.bytes, v.tag));
            }
            then(ops);
        }
    }

    Job& job_;
    const RankTrace& t_;
    std::uint32_t rank_;
    std::vector<Dep> deps_;
    std::unordered_map<std::uint32_t, std::uint32_t> pending_;  // request id -> its op
    std::unordered_map<std::uint16_t, CommView> views_;
};

// The notes on what was approximated, and the schedule.
void finish(Job& job, Conversion& out) {
    const struct {
        std::uint64_t n;
        const char *one, *many, *what;
    } counts[] = {
        {job.dropped_messages, "message", "messages",
         " to or from left-out ranks dropped; collectives run among the ranks present"},
        {job.lost_roots, "rooted collective", "rooted collectives", " whose root was left out rooted at the first rank"},
        {job.synchronous_sends, "MPI_Ssend", "MPI_Ssends", " simulated as standard sends (GOAL has no synchronous send)"},
        {job.never_completed, "nonblocking operation", "nonblocking operations",
         " never completed by a traced Wait/Test: nothing after them waits for them"},
    };
    for (const auto& c : counts)
        if (c.n) out.notes.push_back(std::to_string(c.n) + " " + (c.n == 1 ? c.one : c.many) + c.what);
    out.schedule = job.builder.finish();
}

}  // namespace

std::uint64_t traced_region_ns(const std::vector<RankTrace>& traces) {
    std::uint64_t longest = 0;
    for (const RankTrace& t : traces)
        if (!t.records.empty()) longest = std::max(longest, t.records.back().end - t.records.front().start);
    return longest;
}

Conversion goal_from_traces(const std::vector<RankTrace>& traces, std::uint32_t world_size,
                            const std::map<std::uint32_t, std::string>& left_out, Allreduce allreduce) {
    std::uint64_t records = 0;
    for (const RankTrace& t : traces) records += t.records.size();
    Job job(world_size, records * 2, allreduce);
    for (const RankTrace& t : traces)
        if (t.rank < world_size) job.present[t.rank] = true;
    for (const RankTrace& t : traces)
        if (t.rank < world_size) RankOrder(job, t).run();
    Conversion out;
    out.traced_ns = traced_region_ns(traces);
    for (const auto& [rank, why] : left_out)
        out.notes.push_back("rank " + std::to_string(rank) + " left out (no ops): " + why);
    for (std::uint32_t r = 0; r < world_size; ++r)
        if (!job.present[r] && !left_out.count(r)) out.notes.push_back("rank " + std::to_string(r) + " left out: no trace file");
    finish(job, out);
    return out;
}

Conversion goal_from_rank_source(std::uint32_t world_size, std::uint64_t records,
                                 const std::function<RankTrace(std::uint32_t)>& rank_trace, Allreduce allreduce) {
    Job job(world_size, records * 2, allreduce);
    job.present.assign(world_size, true);
    for (std::uint32_t r = 0; r < world_size; ++r) {
        const RankTrace t = rank_trace(r);
        RankOrder(job, t).run();
    }
    Conversion out;
    finish(job, out);
    return out;
}

}  // namespace jobtrace
