#include "hang/model/progress.h"

#include "hang/model/median.h"
#include "hang/sampler/mpi_classifier.h"

#include <algorithm>
#include <sstream>

namespace jobsentry {
namespace {

constexpr uint64_t kFnvOffset = 1469598103934665603ull;
constexpr uint64_t kFnvPrime = 1099511628211ull;

uint64_t fnv1a(uint64_t hash, const std::string& text) {
    for (unsigned char c : text) hash = (hash ^ c) * kFnvPrime;
    return (hash ^ 0xff) * kFnvPrime;  // separator so ("ab","c") != ("a","bc")
}

// Index of the outermost MPI frame (frames are innermost first), or -1.
int outermost_mpi_index(const std::vector<Frame>& frames) {
    for (int i = static_cast<int>(frames.size()) - 1; i >= 0; --i)
        if (frames[i].mpi) return i;
    return -1;
}

std::string join_ranks(const std::vector<int>& ranks) {
    std::ostringstream out;
    for (size_t i = 0; i < ranks.size(); ++i) out << (i ? "," : "") << ranks[i];
    return out.str();
}

// True when one group is strictly larger than every other: only then is
// there an odd branch to point at.
bool unique_largest(const std::map<std::string, std::vector<int>>& groups) {
    size_t best = 0, count = 0;
    for (const auto& [call, members] : groups) {
        if (members.size() > best) {
            best = members.size();
            count = 1;
        } else if (members.size() == best) {
            ++count;
        }
    }
    return count == 1;
}

}  // namespace

uint64_t progress_signature(const std::vector<Frame>& frames) {
    const int mpi = outermost_mpi_index(frames);
    const int innermost = mpi >= 0 ? mpi : 0;
    uint64_t hash = kFnvOffset;
    for (int i = static_cast<int>(frames.size()) - 1; i >= innermost; --i) {
        // Unnamed frames contribute their module only: their PC is no more
        // stable than a leaf PC.
        hash = fnv1a(hash, frames[i].function.empty() ? frames[i].module : frames[i].function);
    }
    return hash;
}

uint64_t progress_signature(const StackSample& s) {
    return s.digest_only ? s.progress_digest : progress_signature(s.frames);
}

uint64_t exact_signature(const StackSample& s) { return s.digest_only ? s.exact_digest : exact_signature(s.frames); }

uint64_t chain_signature(const StackSample& s) { return s.digest_only ? s.chain_digest : chain_signature(s.frames); }

std::string outermost_mpi_call(const StackSample& s) {
    return s.digest_only ? s.mpi_call : outermost_mpi_call(s.frames);
}

StackSample compact_sample(StackSample full) {
    if (full.digest_only) return full;
    full.exact_digest = exact_signature(full.frames);
    full.progress_digest = progress_signature(full.frames);
    full.chain_digest = chain_signature(full.frames);
    full.mpi_call = outermost_mpi_call(full.frames);
    full.frames.clear();
    full.digest_only = true;
    return full;
}

uint64_t exact_signature(const std::vector<Frame>& frames) {
    uint64_t hash = kFnvOffset;
    for (const Frame& f : frames)
        for (int shift = 0; shift < 64; shift += 8) hash = (hash ^ ((f.pc >> shift) & 0xff)) * kFnvPrime;
    return hash;
}

uint64_t chain_signature(const std::vector<Frame>& frames) {
    uint64_t hash = kFnvOffset;
    for (const Frame& f : frames) hash = fnv1a(hash, f.function.empty() ? f.module : f.function);
    return hash;
}

std::string outermost_mpi_call(const std::vector<Frame>& frames) {
    const int mpi = outermost_mpi_index(frames);
    if (mpi < 0) return {};
    return frames[mpi].function.empty() ? frames[mpi].module : frames[mpi].function;
}

const char* to_string(Activity a) {
    switch (a) {
        case Activity::in_mpi: return "in_mpi";
        case Activity::computing: return "computing";
        case Activity::idle_outside: return "idle_outside";
        case Activity::stopped: return "stopped";
        case Activity::threads_working: return "threads_working";
    }
    return "?";
}

bool main_thread_ran(uint64_t user_ticks_used, uint64_t cpu_ticks_used, bool ever_awake) {
    return user_ticks_used > 0 || (ever_awake && cpu_ticks_used > 0);
}

Activity ProgressTracker::observe(const RankObservation& obs, bool* moved) {
    auto previous = last_.find(obs.rank);
    const bool first = previous == last_.end();
    if (moved) *moved = first || previous->second.progress != obs.progress;
    const RankObservation before = first ? obs : previous->second;
    last_[obs.rank] = obs;
    if (obs.state == 'T' || obs.state == 't') return Activity::stopped;
    if (obs.in_mpi) return Activity::in_mpi;
    auto used = [](uint64_t now, uint64_t then) { return now >= then ? now - then : 0; };
    const uint64_t main_used = used(obs.main_cpu_ticks, before.main_cpu_ticks);
    if (first || before.exact != obs.exact ||
        main_thread_ran(used(obs.main_user_ticks, before.main_user_ticks), main_used, obs.state != 'S'))
        return Activity::computing;
    // The sampled (main) thread did nothing: asleep, blocked -- or waiting
    // for the rank's own threads, which then use CPU time meanwhile.
    const uint64_t process_used = used(obs.cpu_ticks, before.cpu_ticks);
    const uint64_t others = process_used >= main_used ? process_used - main_used : 0;
    return others >= kThreadsWorkingTicks ? Activity::threads_working : Activity::idle_outside;
}

double effective_s_out(const std::vector<Activity>& activities) {
    if (activities.empty()) return 0.0;
    auto out = std::count_if(activities.begin(), activities.end(),
                             [](Activity a) { return a == Activity::computing || a == Activity::threads_working; });
    return static_cast<double>(out) / activities.size();
}

double share_moved(const std::vector<bool>& moved) {
    if (moved.empty()) return 0.0;
    return static_cast<double>(std::count(moved.begin(), moved.end(), true)) / moved.size();
}

bool stopped_throughout(const std::string& states) {
    return !states.empty() && states.find_first_not_of("Tt") == std::string::npos;
}

bool ran_between_looks(const StackSample& first, const StackSample& last) {
    constexpr uint64_t kRanNs = 10'000'000;
    constexpr uint64_t kRanTicks = 2;
    auto grew = [](uint64_t then, uint64_t now, uint64_t by) { return now > then && now - then >= by; };
    return (first.sched_known && last.sched_known && grew(first.main_run_ns, last.main_run_ns, kRanNs)) ||
           grew(first.main_cpu_ticks, last.main_cpu_ticks, kRanTicks);
}

RankVerification verify_rank(int rank, const std::vector<StackSample>& window, const StackSample* before) {
    RankVerification v;
    v.rank = rank;
    if (window.empty()) return v;
    v.sampled = true;
    const uint64_t first = progress_signature(window.front());
    if (before && progress_signature(*before) != first) v.signature_changed = true;
    size_t in_kernel = 0;  // D in every sample, not a passing page fault
    std::string states;
    for (const auto& s : window) {
        if (progress_signature(s) != first) v.signature_changed = true;
        if (s.state == 'D') ++in_kernel;
        states += s.state;
    }
    // Stopped in every look, not in some, and not running between them: a throttled rank is
    // continued between looks, and a rank in D that runs between them works (synchronous I/O).
    if ((stopped_throughout(states) || in_kernel == window.size()) && !ran_between_looks(window.front(), window.back()))
        v.stopped = true;
    v.seen_stopped = v.stopped || states.find_first_of("Tt") != std::string::npos;
    const StackSample& last = window.back();
    v.in_mpi = last.in_mpi;
    v.in_mpi_any = std::any_of(window.begin(), window.end(), [](const StackSample& s) { return s.in_mpi; });
    v.mpi_call = outermost_mpi_call(last);
    auto used = [](uint64_t now, uint64_t then) { return now >= then ? now - then : 0; };
    v.cpu_ticks_used = used(last.cpu_ticks, window.front().cpu_ticks);
    v.main_cpu_ticks_used = used(last.main_cpu_ticks, window.front().main_cpu_ticks);
    v.main_ran = main_thread_ran(used(last.main_user_ticks, window.front().main_user_ticks), v.main_cpu_ticks_used,
                                 std::any_of(window.begin(), window.end(), [](const StackSample& s) { return s.state != 'S'; }));
    v.run_share = run_share(window.front(), last);
    return v;
}

bool whole_job_stopped(const std::vector<RankVerification>& ranks) {
    size_t sampled = 0, stopped = 0;
    for (const auto& r : ranks) {
        if (!r.sampled) continue;
        ++sampled;
        if ((r.stopped || r.seen_stopped) && !r.signature_changed) ++stopped;
    }
    return sampled > 0 && stopped == sampled;
}

std::vector<int> starved_ranks(const std::vector<RankVerification>& ranks) {
    std::vector<double> shares;
    for (const auto& r : ranks)
        if (r.sampled && r.run_share >= 0) shares.push_back(r.run_share);
    std::vector<int> out;
    if (shares.size() < 2) return out;
    const double middle = median_of(shares);
    for (const auto& r : ranks)
        if (r.sampled && r.run_share >= 0 && r.run_share < 0.5 && r.run_share < 0.25 * middle) out.push_back(r.rank);
    return out;
}

double run_share(const StackSample& first, const StackSample& last) {
    if (!first.sched_known || !last.sched_known || last.main_run_ns < first.main_run_ns ||
        last.main_wait_ns < first.main_wait_ns || first.taken_at <= 0 || last.taken_at <= first.taken_at)
        return -1;
    const double run = static_cast<double>(last.main_run_ns - first.main_run_ns) / 1e9;
    const double wait = static_cast<double>(last.main_wait_ns - first.main_wait_ns) / 1e9;
    if (run + wait <= 0 || run + wait < 0.2 * (last.taken_at - first.taken_at)) return -1;
    return run / (run + wait);
}

namespace {
// The reason a hang is not claimed on these suspects, some of them starved of CPU, or "". A
// starved rank that is no suspect (a peer polling beside a rank that spins for good) is a victim.
std::string starved_reason(const std::vector<RankVerification>& ranks, const std::vector<int>& suspects) {
    std::vector<int> starved;
    for (int rank : starved_ranks(ranks))
        if (std::count(suspects.begin(), suspects.end(), rank)) starved.push_back(rank);
    if (starved.empty()) return {};
    return "rank(s) " + join_ranks(starved) +
           " starved of CPU in the window (runnable, but given a CPU far less than the others): slow, not known "
           "to be hung";
}
}  // namespace

Verdict judge_still_verification(const std::vector<RankVerification>& ranks, const std::vector<int>& suspects) {
    Verdict v;
    auto is_suspect = [&](int rank) { return std::count(suspects.begin(), suspects.end(), rank) > 0; };
    std::vector<int> frozen, spinning, outliers, stopped, working, moved_suspects;
    size_t sampled = 0, waiting = 0;
    for (const auto& r : ranks) {
        if (!r.sampled) continue;
        ++sampled;
        const bool still = !r.signature_changed && (r.stopped || !r.in_mpi_any);
        if (still) {
            (r.stopped || !r.main_ran ? frozen : spinning).push_back(r.rank);
            if (r.outlier_run && !r.stopped && r.main_ran) outliers.push_back(r.rank);
            if (r.stopped) stopped.push_back(r.rank);
        } else if (is_suspect(r.rank)) {
            moved_suspects.push_back(r.rank);
            v.progressed.push_back(r.rank);
        } else if (!r.in_mpi_any) {
            working.push_back(r.rank);
            v.progressed.push_back(r.rank);
        } else {
            ++waiting;
        }
    }
    if (sampled == 0) {
        v.reason = "no rank could be sampled";
        return v;
    }
    if (whole_job_stopped(ranks)) {
        v.reason = "every rank is stopped: the job is suspended, not hung";
        return v;
    }
    const bool frozen_suspect = std::any_of(frozen.begin(), frozen.end(), is_suspect);
    const bool spinning_suspect = std::any_of(spinning.begin(), spinning.end(), is_suspect);
    if (!frozen_suspect && !spinning_suspect) {
        v.reason = "rank(s) " + join_ranks(moved_suspects) + " moved on";
        return v;
    }
    // Spinning ranks count only against peers that wait for them.
    const bool spin_evidence = waiting > 0 && working.empty();
    std::vector<int> stuck = frozen;
    stuck.insert(stuck.end(), spin_evidence ? spinning.begin() : outliers.begin(),
                 spin_evidence ? spinning.end() : outliers.end());
    std::sort(stuck.begin(), stuck.end());
    const bool outlier_suspect = std::any_of(outliers.begin(), outliers.end(), is_suspect);
    if (!frozen_suspect && !spin_evidence && !outlier_suspect) {
        v.reason = !working.empty() ? "rank(s) " + join_ranks(working) + " compute outside MPI: the job goes on"
                                    : "no rank waits in MPI: every rank computes outside it";
        return v;
    }
    if (const std::string starved = starved_reason(ranks, stuck); !starved.empty()) {
        v.reason = starved;
        return v;
    }
    v.hang = true;
    v.progressed.clear();
    v.suspects = stuck;
    if (stopped.size() == stuck.size())
        v.reason = "rank(s) " + join_ranks(stuck) + " stopped (by a signal, or blocked in the kernel) while the others wait";
    else if (working.empty())
        v.reason = "rank(s) " + join_ranks(stuck) +
                   " stand still outside MPI (same call chain in every sample) while the others wait or poll";
    else if (outliers.empty() || spin_evidence)
        v.reason = "rank(s) " + join_ranks(stuck) +
                   " asleep or blocked outside MPI (same stack, no CPU time) while other ranks work on";
    else
        v.reason = "rank(s) " + join_ranks(stuck) + " stand still outside MPI (same call chain in every sample) " +
                   "ten times longer than any healthy run of this job, while other ranks work on";
    return v;
}

Verdict judge_verification(const std::vector<RankVerification>& ranks) {
    Verdict v;
    std::vector<int> sampled, stopped, outside;
    std::map<std::string, std::vector<int>> by_call;
    for (const auto& r : ranks) {
        if (!r.sampled) continue;
        sampled.push_back(r.rank);
        if (r.signature_changed) v.progressed.push_back(r.rank);
        if (r.stopped) stopped.push_back(r.rank);
        if (!r.in_mpi) outside.push_back(r.rank);
        else by_call[r.mpi_call].push_back(r.rank);
    }
    if (sampled.empty()) {
        v.reason = "no rank could be sampled";
        return v;
    }
    if (whole_job_stopped(ranks)) {
        v.reason = "every rank is stopped: the job is suspended, not hung";
        return v;
    }
    if (!v.progressed.empty()) {
        v.reason = "rank(s) " + join_ranks(v.progressed) + " made progress";
        return v;
    }
    if (stopped.empty() && outside.empty()) {
        // Every rank waits inside MPI. A rank seen in a polling call
        // (MPI_Testany, MPI_Iprobe, ...) sample after sample is looping over
        // it and may complete requests all along: a healthy polling phase
        // looks exactly like a deadlock to stack samples. Such a job is
        // judged by the per-rank evidence only (a rank standing still).
        std::vector<int> polling;
        for (const auto& [call, members] : by_call)
            if (is_polling_mpi_call(call)) polling.insert(polling.end(), members.begin(), members.end());
        if (!polling.empty()) {
            std::sort(polling.begin(), polling.end());
            v.reason = "rank(s) " + join_ranks(polling) +
                       " poll (MPI_Test*/MPI_Iprobe) and may be completing requests: no deadlock is claimed from stacks";
            return v;
        }
    }
    v.hang = true;
    if (!stopped.empty()) {
        v.suspects = stopped;
        v.reason = "rank(s) " + join_ranks(stopped) + " stopped (by a signal, or blocked in the kernel) while the others wait";
    } else if (!outside.empty() && outside.size() < sampled.size()) {
        v.suspects = outside;
        v.reason = "rank(s) " + join_ranks(outside) + " stuck outside MPI while the others wait inside it";
    } else if (outside.empty() && by_call.size() > 1 && unique_largest(by_call)) {
        auto largest = std::max_element(by_call.begin(), by_call.end(),
                                        [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
        for (const auto& [call, members] : by_call)
            if (call != largest->first) v.suspects.insert(v.suspects.end(), members.begin(), members.end());
        std::sort(v.suspects.begin(), v.suspects.end());
        v.reason = "rank(s) " + join_ranks(v.suspects) + " wait in a different MPI call than the others (" +
                   largest->first + ")";
    } else {
        v.suspects = sampled;
        if (!outside.empty()) v.reason = "every rank is stuck outside MPI";
        else if (by_call.size() == 1) v.reason = "every rank waits in " + by_call.begin()->first + ": communication deadlock";
        else v.reason = "the ranks wait in different MPI calls, no group the odd one out: communication deadlock";
    }
    if (const std::string starved = starved_reason(ranks, v.suspects); !starved.empty()) {
        Verdict cleared;
        cleared.reason = starved;
        return cleared;
    }
    return v;
}

}  // namespace jobsentry
