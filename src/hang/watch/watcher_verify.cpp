// The Watcher's verification of an alarm: fresh stacks of every rank over a few rounds, judged
// (progress.h); ranks that cannot be seen never make a hang, and a suspect spinning outside MPI
// is watched until it has run long enough to tell an endless loop from a computation.
#include <unistd.h>

#include <algorithm>
#include <sstream>

#include "base/clock.h"
#include "base/proc_files.h"
#include "hang/model/own_wakeups.h"
#include "hang/model/report_stacks.h"
#include "hang/model/sample_record.h"
#include "hang/model/spin_watch.h"
#include "hang/watch/watcher_internal.h"

namespace jobsentry {

void Watcher::end_verification() {
    if (verification_began_ < 0) return;
    cost_.add(CostStep::verification, thread_cpu_now() - verification_began_);
    verification_began_ = -1;
}

void Watcher::verify(const std::vector<int>& still_suspects) {
    ++verifications_;
    verification_began_ = thread_cpu_now();
    struct Counted {  // at every way out; a hang's report counts it already (fill_report_common)
        Watcher& watcher;
        ~Counted() { watcher.end_verification(); }
    } counted{*this};
    if (opt_.verbose) log("verification " + std::to_string(verifications_) + " begins");
    std::map<int, std::vector<StackSample>> seen;
    std::map<int, bool> exited;
    std::map<int, int> timeouts, timeouts_stuck;  // samples whose stop never came; of which in state D or T
    std::map<int, std::pair<StackSample, StackSample>> stuck_span;  // the first and the latest of those in D or T
    OwnWakeups wakeups;  // local ranks: a loop that sleeps is not a hang
    std::map<int, std::string> failed;  // why a rank's latest sample failed (its node agent is lost, the unwind...)
    // On the deadlock path (every rank waiting where it is) the window
    // lasts at least as long as the stillness that raised the alarm, up to
    // 60 s: on a starved node a healthy phase without movement stretches
    // (NWChem, three benches at once, was cancelled after ~3 s of it), and
    // a deadlock only has to last twice as long to be confirmed.
    const bool deadlock_path = still_suspects.empty();
    const double window_start = monotonic_now();
    const double still_before = progress_seen_ > 0 ? std::min(unix_now() - progress_seen_, 60.0) : 0;
    int rounds = opt_.verify_rounds;
    bool changed = false;
    for (int round = 0; round < rounds; ++round) {
        if (round == rounds - 1 && deadlock_path && !changed && monotonic_now() - window_start < still_before)
            ++rounds;  // not yet as long as the stillness before: one more round
        if (round > 0) {
            std::uniform_real_distribution<double> pause(model_.interval() / 4, 3 * model_.interval() / 4);
            if (!pause_until(monotonic_now() + pause(rng_))) return;
        }
        // Read here, not in every sample: only verification needs it (own_wakeups.h).
        std::ostringstream detail, records;  // --verbose: for people, and for bench/model_replay
        for (const auto& proc : ranks_)
            if (proc.node.empty())
                if (auto sleeps = read_voluntary_switches(proc.pid, proc.pid)) {
                    wakeups.reading(proc.rank, *sleeps);
                    if (opt_.verbose) records << " v" << proc.rank << '=' << *sleeps;
                }
        // The verdict needs only the digests (remote ranks: ~120 bytes, not ~3 kB); a
        // hang's report fetches the frames it needs afterwards (fetch_report_stacks).
        std::map<int, StackSample> round_samples = take_samples(ranks_, false);
        for (const auto& proc : ranks_) {
            StackSample s = std::move(round_samples[proc.rank]);
            wakeups.looked(proc.rank);
            reject_astray_unwind(proc.rank, s);
            if (s.status == SampleStatus::unreachable || s.status == SampleStatus::error ||
                s.status == SampleStatus::denied)
                failed[proc.rank] = s.error.empty() ? to_string(s.status) : s.error;
            if (s.status == SampleStatus::gone) exited[proc.rank] = true;
            if (s.status == SampleStatus::timeout) {
                ++timeouts[proc.rank];
                if (s.state == 'D' || s.state == 'T' || s.state == 't') {
                    if (++timeouts_stuck[proc.rank] == 1) stuck_span[proc.rank].first = s;
                    stuck_span[proc.rank].second = s;
                }
                else failed[proc.rank] = "it did not stop for the sample in state " + std::string(1, s.state) +
                                         " (runnable but not scheduled: a starved CPU)";
            }
            if (s.status == SampleStatus::ok) {
                auto& list = seen[proc.rank];
                if (!list.empty() && progress_signature(list.front()) != progress_signature(s)) changed = true;
                if (opt_.verbose) {
                    detail << " r" << proc.rank << ':' << s.state << ':' << outermost_mpi_call(s) << '#' << std::hex
                           << (progress_signature(s) & 0xffff) << std::dec;
                    records << " r" << proc.rank << '=' << sample_record(s);
                }
                list.push_back(std::move(s));
            } else if (opt_.verbose) {
                detail << " r" << proc.rank << ':' << to_string(s.status);
            }
            if (s.status == SampleStatus::gone) changed = true;
        }
        if (opt_.verbose) {
            std::ostringstream at;
            at.precision(3);
            at << std::fixed << monotonic_now() - window_start;
            log("verification round " + std::to_string(round + 1) + "/" + std::to_string(rounds) + " at +" + at.str() +
                "s:" + detail.str());
            log("verification round " + std::to_string(round + 1) + " record:" + records.str());
        }
    }
    // Never stopped for a sample, in D or T at every try, and its main thread did not run between them.
    const auto stuck = [&](int rank) {
        return timeouts[rank] > 0 && timeouts_stuck[rank] == timeouts[rank] &&
               !ran_between_looks(stuck_span[rank].first, stuck_span[rank].second);
    };
    std::vector<RankVerification> checks;
    std::map<int, StackSample> latest;
    for (const auto& proc : ranks_) {
        auto& samples = seen[proc.rank];
        auto previous = last_sample_.find(proc.rank);
        RankVerification v = verify_rank(proc.rank, samples, previous != last_sample_.end() ? &previous->second : nullptr);
        // A rank that never stopped for us in uninterruptible sleep (D) is
        // stuck in the kernel (or stopped, T), a suspect like a rank stopped by a signal. One
        // that was runnable (R) was starved of CPU, which says nothing: on a
        // loaded node a busy-polling rank once missed every stop of a window.
        if (samples.empty()) {
            const bool blocked = stuck(proc.rank);
            v.sampled = exited[proc.rank] || blocked;
            v.stopped = blocked;
        }
        if (exited[proc.rank]) v.signature_changed = true;  // ending is progress too
        if (!samples.empty()) {
            if (wakeups.woke_by_itself(proc.rank)) v.signature_changed = true;  // a loop that sleeps
            v.outlier_run = std::any_of(last_rank_runs_.begin(), last_rank_runs_.end(),
                                        [&](const RankAlarm& a) { return a.rank == proc.rank && a.outlier; });
            latest[proc.rank] = samples.back();
        }
        checks.push_back(v);
    }
    Verdict verdict = still_suspects.empty() ? judge_verification(checks) : judge_still_verification(checks, still_suspects);
    // Ranks never seen in the window (node agent lost, every unwind failed,
    // a debugger attached) may be the ones making progress: what cannot be
    // seen never turns into a hang by itself. A rank that would not stop at
    // all (D) was seen: it is a suspect of its own.
    std::map<int, std::string> unseen_ranks;
    for (const auto& [rank, why] : failed)
        if (seen[rank].empty() && !exited[rank] && !stuck(rank)) unseen_ranks[rank] = why;
    if (verdict.hang && !unseen_ranks.empty()) {
        verdict.hang = false;
        verdict.reason = "rank " + std::to_string(unseen_ranks.begin()->first) + " cannot be verified (" +
                         unseen_ranks.begin()->second + ")";
        if (unseen_ranks.size() > 1) verdict.reason += " and " + std::to_string(unseen_ranks.size() - 1) + " more";
    }
    if (verdict.hang) {  // likewise a node whose ranks are not even known
        const std::string unseen = job_.unseen_part();
        if (!unseen.empty()) {
            verdict.hang = false;
            verdict.reason = unseen;
        }
    }
    if (verdict.hang) {
        std::string moved = watch_spinning_suspects(verdict, checks, latest);
        if (!moved.empty()) {
            verdict.hang = false;
            verdict.reason = moved;
        }
    }
    last_verification_ = verdict.reason;
    if (!verdict.hang) {
        log("alarm cleared by verification: " + verdict.reason);
        model_.dismiss_streak();
        stillness_.dismiss_streak();
        for (int rank : still_suspects) {
            if (std::count(verdict.progressed.begin(), verdict.progressed.end(), rank)) rank_runs_.cleared(rank);
            else rank_runs_.postpone(rank);
        }
        for (auto& [rank, s] : latest) last_sample_[rank] = std::move(s);
        return;
    }
    hang_found(verdict, latest, fetch_report_stacks(latest, verdict.suspects));
}

std::map<int, int> Watcher::fetch_report_stacks(std::map<int, StackSample>& latest, const std::vector<int>& suspects) {
    std::vector<RankProcess> fetch;
    for (int rank : report_stack_fetches(latest, suspects))
        for (const auto& proc : ranks_)
            if (proc.rank == rank) fetch.push_back(proc);
    if (!fetch.empty())
        for (auto& [rank, s] : take_samples(fetch, true))
            if (s.status == SampleStatus::ok && !s.digest_only) latest[rank] = std::move(s);
    return report_stack_twins(latest);
}

std::string Watcher::watch_spinning_suspects(const Verdict& verdict, const std::vector<RankVerification>& checks,
                                             std::map<int, StackSample>& latest) {
    // Suspects computing outside MPI are watched closely until each has spun the window (spin_watch.h).
    std::vector<RankProcess> spinning;
    for (const auto& c : checks) {
        if (!latest.count(c.rank)) continue;
        switch (spin_watch_need(c, verdict.suspects)) {
            case SpinWatchNeed::none: break;
            case SpinWatchNeed::threads_work:
                return "rank " + std::to_string(c.rank) + "'s main thread waits while its other threads work (" +
                       std::to_string(c.cpu_ticks_used - c.main_cpu_ticks_used) + " ticks of CPU time in the verification)";
            case SpinWatchNeed::watch:
                for (const auto& proc : ranks_)
                    if (proc.rank == c.rank) spinning.push_back(proc);
        }
    }
    if (spinning.empty() || opt_.spin_verify_ms == 0) return {};
    const double window = opt_.spin_verify_ms / 1000.0;
    static const double tick = 1.0 / sysconf(_SC_CLK_TCK);
    std::map<int, SpinWatch> watches;
    for (const auto& proc : spinning) watches.emplace(proc.rank, SpinWatch(latest[proc.rank], window, tick));
    const double until = monotonic_now() + watches.begin()->second.wall_limit_seconds();
    auto all_stand = [&] {
        return std::all_of(watches.begin(), watches.end(), [](const auto& w) { return w.second.stands(); });
    };
    while (monotonic_now() < until && !all_stand()) {
        if (!pause_until(monotonic_now() + 0.1)) return "the job ended during verification";
        std::map<int, StackSample> watched = take_samples(spinning, false);
        for (const auto& proc : spinning) {
            StackSample s = std::move(watched[proc.rank]);
            reject_astray_unwind(proc.rank, s);
            if (s.status == SampleStatus::gone) return "rank " + std::to_string(proc.rank) + " exited";
            if (s.status != SampleStatus::ok) continue;
            if (opt_.verbose) log("spin watch record: r" + std::to_string(proc.rank) + '=' + sample_record(s));
            if (watches.at(proc.rank).look(s) == SpinWatch::Look::moved)
                return "rank " + std::to_string(proc.rank) + " computing outside MPI moved to another function";
            if (!s.digest_only) latest[proc.rank] = std::move(s);  // keep the full stack for the report
        }
    }
    for (const auto& [rank, watch] : watches) {
        if (!watch.stands()) {
            std::ostringstream why;
            why.precision(3);
            why << "rank " << rank << " ran only " << watch.ran_seconds() << " s of CPU time in "
                << watch.wall_limit_seconds() << " s of watching (--spin-verify-ms asks " << window
                << " s): too little to tell an endless loop from a long computation";
            return why.str();
        }
    }
    return {};
}

}  // namespace jobsentry
