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
                if (s.state == 'D' || s.state == 'T' || s.state == 't') ++timeouts_stuck[proc.rank];
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
    // Never stopped for a sample, and in D or T at every try.
    const auto stuck = [&](int rank) { return timeouts[rank] > 0 && timeouts_stuck[rank] == timeouts[rank]; };
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
    // A suspect outside MPI that gets CPU time may be in an infinite loop or
    // in a long computation that happens to stay in one call chain for the
    // few verification samples. Watch only those ranks, closely, until each
    // has run --spin-verify-ms of CPU time in that chain: a computation moves
    // to another function, a loop never does. CPU time, not wall time: on a
    // loaded node a 4 s compute phase lasts 20 s of wall time, and a wall-time
    // window cancelled such a healthy phase (bench/real_false_alarms.sh, three
    // benches at once). A rank starved of CPU is watched at most ten times
    // the window in wall time; if it has not run the window by then, nothing
    // is known and the alarm is cleared (its run must grow further): three
    // benches at once gave a healthy dgemm_phase rank 4 s of CPU in 50 s,
    // and confirming then cancelled a 2-4 s compute phase.
    // A suspect whose main thread did not run is frozen, not spinning: nothing to watch, unless its
    // other threads worked meanwhile (a master waiting at an OpenMP barrier while its team
    // computes), which clears the alarm. Watching a frozen rank with a little CPU time from Open
    // MPI's helper threads (2 ticks) cleared a sleeping CP2K rank after 50 s of watching, every time.
    std::vector<RankProcess> spinning;
    for (const auto& c : checks) {
        bool suspect = std::count(verdict.suspects.begin(), verdict.suspects.end(), c.rank) > 0;
        if (!suspect || c.in_mpi || c.stopped || c.cpu_ticks_used == 0 || !latest.count(c.rank)) continue;
        if (!c.main_ran) {
            const uint64_t others = c.cpu_ticks_used > c.main_cpu_ticks_used ? c.cpu_ticks_used - c.main_cpu_ticks_used : 0;
            if (others >= kThreadsWorkingWindowTicks)
                return "rank " + std::to_string(c.rank) + "'s main thread waits while its other threads work (" +
                       std::to_string(others) + " ticks of CPU time in the verification)";
            continue;
        }
        for (const auto& proc : ranks_)
            if (proc.rank == c.rank) spinning.push_back(proc);
    }
    if (spinning.empty() || opt_.spin_verify_ms == 0) return {};
    const double window = opt_.spin_verify_ms / 1000.0;
    const double until = monotonic_now() + 10 * window;
    static const double tick = 1.0 / sysconf(_SC_CLK_TCK);
    std::map<int, uint64_t> cpu_at_start, cpu_now;
    for (const auto& proc : spinning) cpu_at_start[proc.rank] = cpu_now[proc.rank] = latest[proc.rank].main_cpu_ticks;
    // A rank asleep (state S) at every look is not looping, whatever CPU time it is charged: on a
    // PVM guest a sleeping CP2K rank was charged 1-2 s in 50 s of watching, too little to pass the
    // window and enough to look busy, and its hang was cleared. A spinning rank, starved or not, is
    // R (running or runnable); so is a long computation.
    constexpr int kAsleepLooks = 20;
    std::map<int, int> looks, asleep;
    auto asleep_throughout = [&](int rank) { return looks[rank] >= kAsleepLooks && asleep[rank] == looks[rank]; };
    auto watched_long_enough = [&] {
        for (const auto& proc : spinning)
            if ((cpu_now[proc.rank] - cpu_at_start[proc.rank]) * tick < window && !asleep_throughout(proc.rank))
                return false;
        return true;
    };
    while (monotonic_now() < until && !watched_long_enough()) {
        if (!pause_until(monotonic_now() + 0.1)) return "the job ended during verification";
        std::map<int, StackSample> watched = take_samples(spinning, false);
        for (const auto& proc : spinning) {
            StackSample s = std::move(watched[proc.rank]);
            reject_astray_unwind(proc.rank, s);
            if (s.status == SampleStatus::gone) return "rank " + std::to_string(proc.rank) + " exited";
            if (s.status != SampleStatus::ok) continue;
            if (opt_.verbose) log("spin watch record: r" + std::to_string(proc.rank) + '=' + sample_record(s));
            if (progress_signature(s) != progress_signature(latest[proc.rank]))
                return "rank " + std::to_string(proc.rank) + " computing outside MPI moved to another function";
            cpu_now[proc.rank] = std::max(cpu_now[proc.rank], s.main_cpu_ticks);
            ++looks[proc.rank];
            if (s.state == 'S') ++asleep[proc.rank];
            if (!s.digest_only) latest[proc.rank] = std::move(s);  // keep the full stack for the report
        }
    }
    for (const auto& proc : spinning) {
        const double ran = (cpu_now[proc.rank] - cpu_at_start[proc.rank]) * tick;
        if (ran < window && !asleep_throughout(proc.rank)) {
            std::ostringstream why;
            why.precision(3);
            why << "rank " << proc.rank << " ran only " << ran << " s of CPU time in " << 10 * window
                << " s of watching (--spin-verify-ms asks " << window
                << " s): too little to tell an endless loop from a long computation";
            return why.str();
        }
    }
    return {};
}

}  // namespace jobsentry
