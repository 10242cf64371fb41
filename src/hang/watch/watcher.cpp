#include "hang/watch/watcher.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "base/clock.h"
#include "hang/watch/discovery.h"
#include "base/launcher.h"  // shell_status
#include "hang/model/parastack.h"
#include "hang/model/progress.h"
#include "hang/model/rank_stillness.h"
#include "hang/model/unwind_filter.h"
#include "base/proc_files.h"
#include "hang/watch/report.h"
#include "hang/sampler/stack_walker.h"

namespace jobsentry {
namespace {

// What ptrace needs, said once for every place that finds it refused.
std::string ptrace_requirements() {
    std::string yama;
    auto scope = read_bounded("/proc/sys/kernel/yama/ptrace_scope", 16);
    if (scope && !scope->empty()) yama = " (kernel.yama.ptrace_scope is " + scope->substr(0, scope->find('\n')) + ")";
    return "jobsentry needs the same user as the ranks with kernel.yama.ptrace_scope <= 1" + yama +
           ", or CAP_SYS_PTRACE; ranks that made themselves non-dumpable, seccomp or a container policy "
           "can also forbid it. The command keeps running unmonitored.";
}

constexpr double kDiscoverySeconds = 2.0;
constexpr uint64_t kWarmSamples = 20;  // start-up cost (symbol tables of each rank) is behind us by then

double own_cpu_seconds() {
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    return self.ru_utime.tv_sec + self.ru_stime.tv_sec + (self.ru_utime.tv_usec + self.ru_stime.tv_usec) / 1e6;
}
constexpr double kNoRanksWarningSeconds = 30.0;

class Watcher {
public:
    Watcher(const DetectionSettings& o, WatchedJob& job)
        : opt_(o),
          job_(job),
          model_(ModelConfig{o.alpha, o.interval_ms / 1000.0, o.max_interval_ms / 1000.0, 20}),
          // Same samples, same significance; sampling times follow model_, so
          // this one never adapts an interval of its own.
          stillness_(ModelConfig{o.alpha, o.interval_ms / 1000.0, o.interval_ms / 1000.0, 20}),
          rank_runs_(StillnessConfig{o.alpha, 2.0}),
          rng_(o.seed ? o.seed : static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count())) {}

    int run();

private:
    void log(const std::string& message) const { std::cerr << "jobsentry: " << message << std::endl; }
    void reap();
    void wait_for_events(double until);
    void discover();
    void pick_monitored();
    void rotate_visitors();
    // Samples of the given ranks, here by ptrace or by their node's agent.
    std::map<int, StackSample> take_samples(const std::vector<RankProcess>& procs, bool full);
    void sample_round();
    void verify(const std::vector<int>& still_suspects);
    // The ranks whose still run (rank_stillness.h) calls for verification now.
    std::vector<int> rank_alarms(const std::vector<RankRoundSample>& round);
    double next_delay();
    std::string watch_spinning_suspects(const Verdict& verdict, const std::vector<RankVerification>& checks,
                                        std::map<int, StackSample>& latest);
    void stop_monitoring(const std::string& why);
    void hang_found(const Verdict& verdict, const std::map<int, StackSample>& stacks);
    RankReport rank_report(const RankProcess& proc, const StackSample* sample, const std::string& activity) const;
    void fill_report_common();
    bool ended() const { return job_.over(); }
    nlohmann::json evidence() const;
    nlohmann::json rank_runs_json() const;
    // A sample whose unwind went astray is no evidence (unwind_filter.h):
    // it is marked failed.
    void reject_astray_unwind(int rank, StackSample& s);

    DetectionSettings opt_;
    WatchedJob& job_;
    ParaStackModel model_;      // on S_out, as ParaStack
    ParaStackModel stillness_;  // on S_move: see docs/decision-rule.md
    RankStillnessModel rank_runs_;  // per rank: how long it stands still outside MPI
    std::mt19937_64 rng_;
    StackWalker walker_;
    ProgressTracker tracker_;
    bool monitoring_ = opt_.detect;
    bool hang_ = false;
    bool terminating_ = false;

    std::vector<RankProcess> ranks_;        // every rank found
    std::vector<RankProcess> candidate_;    // last discovery, until it is seen twice
    std::vector<RankProcess> monitored_;
    std::vector<RankProcess> visitors_;     // unmonitored ranks sampled in turn (rotate_visitors)
    size_t next_visitor_ = 0;
    int visit_rounds_ = 0;
    static constexpr size_t kVisitorSlots = 2;
    static constexpr int kVisitRounds = 8;
    bool ranks_stable_ = false;
    double next_discovery_ = 0;
    double next_sample_ = 0;
    double sample_late_ = 0;  // how late this round started (bench/hostile_peers.sh: jitter under attack)
    double unreadable_since_ = 0;
    double started_ = monotonic_now();
    double streak_started_ = 0;  // unix time of the first sample of the current suspicious run
    double progress_seen_ = 0;   // unix time of the last round in which a monitored rank moved
    double still_phase_ = 0;     // unix time of the last round of the current phase without movement
    double longest_still_phase_ = 0;  // seconds: the longest healthy phase in which no monitored rank moved
    bool suspended_ = false;     // the last round found every rank stopped
    std::vector<RankAlarm> last_rank_runs_;
    std::map<int, int> sample_failures_;  // per rank, for bounded logging
    UnwindFilter unwinds_;                // which unwinds went astray
    bool no_ranks_warned_ = false;

    std::map<int, StackSample> last_sample_;  // per rank
    std::map<int, std::string> last_activity_;
    Judgement last_judgement_;
    Judgement last_stillness_;
    std::string last_verification_;
    int verifications_ = 0;
    Report report_;
};

void Watcher::reap() {
    // Peek first (WNOWAIT): a tracer is shown its tracees' ptrace stops
    // whatever the wait flags say, and such a stop belongs to the walker,
    // which must detach the tracee. Only real exits are reaped here.
    walker_.reap_pending();
    for (;;) {
        siginfo_t info{};
        if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0) break;
        const pid_t pid = info.si_pid;
        if (info.si_code != CLD_EXITED && info.si_code != CLD_KILLED && info.si_code != CLD_DUMPED) {
            walker_.reap_pending();  // a late stop of a tracee we still hold
            if (walker_.is_pending(pid)) break;  // not ours to take; look again at the next turn
            continue;
        }
        siginfo_t done{};
        waitid(P_PID, static_cast<id_t>(pid), &done, WEXITED | WNOHANG);
        int status = info.si_code == CLD_EXITED ? (info.si_status & 0xff) << 8 : (info.si_status & 0x7f);
        job_.child_exited(pid, status);
    }
    // Our own child may have been a rank whose exit the walker saw first.
    if (job_.child() > 0) {
        if (auto status = walker_.take_exit_status(job_.child())) job_.child_exited(job_.child(), *status);
    }
}

void Watcher::wait_for_events(double until) {
    sigset_t set;
    sigemptyset(&set);
    for (int s : {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT}) sigaddset(&set, s);
    double left = until - monotonic_now();
    if (left < 0) left = 0;
    timespec timeout{static_cast<time_t>(left), static_cast<long>((left - std::floor(left)) * 1e9)};
    siginfo_t info{};
    int sig = sigtimedwait(&set, &info, &timeout);
    if (sig <= 0 || sig == SIGCHLD) return;
    std::string why = job_.signalled(sig, info);
    if (!why.empty() && !terminating_) {
        terminating_ = true;
        stop_monitoring(why);
    }
}

void Watcher::stop_monitoring(const std::string& why) {
    if (!monitoring_) return;
    monitoring_ = false;
    report_.monitoring_problem = why;
    log(why);
    job_.problem(why);
}

void Watcher::discover() {
    next_discovery_ = monotonic_now() + kDiscoverySeconds;
    Discovery found = job_.find_ranks();
    if (found.ranks.empty() && !found.unreadable.empty()) {
        if (unreadable_since_ == 0) unreadable_since_ = monotonic_now();
        if (monotonic_now() - unreadable_since_ > 2 * kDiscoverySeconds)
            stop_monitoring("cannot inspect the job's processes (pid " + std::to_string(found.unreadable[0]) +
                            ": permission denied): ptrace access is not permitted. " + ptrace_requirements());
        return;
    }
    auto same = [](const std::vector<RankProcess>& a, const std::vector<RankProcess>& b) {
        return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
                   return x.pid == y.pid && x.rank == y.rank && x.node == y.node;
               });
    };
    if (!same(found.ranks, candidate_)) {  // still changing (start-up, exits): look again soon
        candidate_ = found.ranks;
        next_discovery_ = monotonic_now() + 0.5;
        return;
    }
    if (found.ranks.empty()) {
        // Only when none was ever found: ranks also vanish when a job step ends.
        if (!no_ranks_warned_ && ranks_.empty() && monotonic_now() - started_ > kNoRanksWarningSeconds) {
            no_ranks_warned_ = true;
            report_.monitoring_problem =
                "no MPI rank found after " + std::to_string(int(kNoRanksWarningSeconds)) +
                " s (a rank is a process of the job's user carrying OMPI_COMM_WORLD_RANK, PMIX_RANK or PMI_RANK; "
                "under `jobsentry watch`, tasks that srun starts are children of slurmd, not of the command); "
                "still looking";
            log(report_.monitoring_problem);
            job_.problem(report_.monitoring_problem);
        }
        return;
    }
    if (same(found.ranks, ranks_)) return;
    for (const auto& old : ranks_) {  // drop the caches of processes that left
        bool kept = std::any_of(found.ranks.begin(), found.ranks.end(), [&](const RankProcess& r) {
            return r.pid == old.pid && r.start_time == old.start_time && r.node == old.node;
        });
        if (!kept) {
            if (old.node.empty()) walker_.forget(old.pid);
            tracker_.forget(old.rank);
            rank_runs_.forget(old.rank);
        }
    }
    ranks_ = found.ranks;
    ranks_stable_ = true;
    pick_monitored();
    {  // every change of the rank set is logged: it says which processes are touched
        std::ostringstream msg;
        msg << "found " << ranks_.size() << " ranks (rank/pid:";
        for (const auto& r : ranks_) msg << ' ' << r.rank << '/' << (r.node.empty() ? "" : r.node + ":") << r.pid;
        msg << "); monitoring " << monitored_.size() << ":";
        for (const auto& r : monitored_) msg << ' ' << r.rank;
        log(msg.str());
    }
}

void Watcher::rotate_visitors() {
    // Ranks beyond --ranks are visited in turn, kVisitorSlots at a time for
    // kVisitRounds rounds each, so that a single hung rank is seen standing
    // still at any job size (docs/decision-rule.md §4). A visit starts
    // afresh: no run spans the rounds in which the rank was not looked at.
    if (ranks_.size() <= monitored_.size()) {
        visitors_.clear();
        return;
    }
    if (!visitors_.empty() && ++visit_rounds_ < kVisitRounds) return;
    for (const auto& v : visitors_) {
        tracker_.forget(v.rank);
        rank_runs_.forget(v.rank);
    }
    visitors_.clear();
    visit_rounds_ = 0;
    for (size_t tried = 0; tried < ranks_.size() && visitors_.size() < kVisitorSlots; ++tried) {
        const RankProcess& candidate = ranks_[next_visitor_++ % ranks_.size()];
        bool monitored = std::any_of(monitored_.begin(), monitored_.end(),
                                     [&](const RankProcess& m) { return m.rank == candidate.rank; });
        if (!monitored) visitors_.push_back(candidate);
    }
}

void Watcher::pick_monitored() {
    for (const auto& v : visitors_) {
        tracker_.forget(v.rank);
        rank_runs_.forget(v.rank);
    }
    visitors_.clear();
    monitored_ = ranks_;
    std::shuffle(monitored_.begin(), monitored_.end(), rng_);
    if (static_cast<int>(monitored_.size()) > opt_.ranks) monitored_.resize(opt_.ranks);
    std::sort(monitored_.begin(), monitored_.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
}

std::map<int, StackSample> Watcher::take_samples(const std::vector<RankProcess>& procs, bool full) {
    std::map<int, StackSample> out;
    std::vector<RankProcess> remote;
    for (const auto& proc : procs) {
        if (proc.node.empty()) out[proc.rank] = walker_.sample(proc.pid, proc.start_time);
        else remote.push_back(proc);
    }
    if (!remote.empty())
        for (auto& [rank, s] : job_.sample_remote(remote, full)) out[rank] = std::move(s);
    return out;
}

void Watcher::sample_round() {
    std::vector<Activity> activities;
    std::vector<bool> moved;
    std::vector<RankRoundSample> round;
    std::ostringstream detail;
    bool someone_gone = false;
    std::vector<RankProcess> visited = monitored_;
    const size_t fixed = visited.size();  // the monitored ranks come first; then the rotating visitors
    rotate_visitors();
    visited.insert(visited.end(), visitors_.begin(), visitors_.end());
    std::map<int, StackSample> samples = take_samples(visited, false);
    for (size_t i = 0; i < visited.size(); ++i) {
        const RankProcess& proc = visited[i];
        const bool visitor = i >= fixed;
        StackSample s = std::move(samples[proc.rank]);
        reject_astray_unwind(proc.rank, s);
        if (s.status == SampleStatus::denied) {
            stop_monitoring("ptrace of rank " + std::to_string(proc.rank) + " (pid " + std::to_string(proc.pid) +
                            ") was refused: " + s.error + ". " + ptrace_requirements());
            return;
        }
        if (s.status == SampleStatus::gone) {
            someone_gone = true;
            if (proc.node.empty()) walker_.forget(proc.pid);
            tracker_.forget(proc.rank);
            rank_runs_.forget(proc.rank);
            continue;
        }
        if (s.status == SampleStatus::unreachable) {  // its node agent is lost: not in S_out
            tracker_.forget(proc.rank);
            rank_runs_.forget(proc.rank);
            continue;
        }
        if (s.status != SampleStatus::ok) {
            // A failed sample is skipped, never evidence: the rank's still
            // run neither grows nor ends. Logged always, but bounded.
            const int failures = ++sample_failures_[proc.rank];
            if (opt_.verbose || failures <= 3 || failures % 100 == 0)
                log("rank " + std::to_string(proc.rank) + ": sample skipped (" + s.error + "; " +
                    std::to_string(failures) + " so far)");
            continue;
        }
        bool rank_moved = false;
        Activity a = tracker_.observe(
            {proc.rank, s.in_mpi, exact_signature(s), s.state, s.cpu_ticks, progress_signature(s), s.main_cpu_ticks,
             s.main_user_ticks},
            &rank_moved);
        round.push_back({proc.rank, still_kind(a, rank_moved), rank_moved, s.taken_at});
        last_activity_[proc.rank] = to_string(a);
        last_sample_[proc.rank] = std::move(s);
        if (opt_.verbose) detail << " r" << proc.rank << (visitor ? "*" : "") << ':' << to_string(a) << (rank_moved ? "+" : "");
        if (visitor) continue;  // S_out and S_move stay ParaStack's, over the fixed monitored set
        activities.push_back(a);
        moved.push_back(rank_moved);
    }
    if (someone_gone) next_discovery_ = 0;  // a rank ended: the job is changing
    if (activities.empty()) return;
    if (std::all_of(activities.begin(), activities.end(), [](Activity a) { return a == Activity::stopped; })) {
        // Every rank stopped at once: the job is suspended (scontrol
        // suspend, gang scheduling, a whole-job SIGSTOP). Not evidence of
        // anything, and no still run may carry over the suspension.
        if (!suspended_) log("every sampled rank is stopped: the job is suspended; no judgement until it resumes");
        suspended_ = true;
        rank_runs_.suspended();
        return;
    }
    if (suspended_) {  // resumed: the suspension is no phase of the job's own
        suspended_ = false;
        progress_seen_ = unix_now();
        still_phase_ = 0;
    }
    if (++report_.samples == kWarmSamples) {
        report_.warm_cpu_s = own_cpu_seconds();
        report_.warm_at = unix_now();
    }
    const double s_out = effective_s_out(activities);
    const double s_move = share_moved(moved);
    last_judgement_ = model_.observe(s_out);
    last_stillness_ = stillness_.observe(s_move);
    const std::vector<int> still_suspects = rank_alarms(round);
    if (s_move > 0) {
        if (still_phase_ > progress_seen_ && progress_seen_ > 0)
            longest_still_phase_ = std::max(longest_still_phase_, still_phase_ - progress_seen_);
        progress_seen_ = unix_now();
    } else {
        still_phase_ = unix_now();
    }
    const int streak = std::max(last_judgement_.streak, last_stillness_.streak);
    if (streak == 0) streak_started_ = 0;
    else if (streak_started_ == 0) streak_started_ = unix_now();
    if (opt_.verbose) {
        auto describe = [](const Judgement& j) {
            std::ostringstream out;
            out.precision(3);
            if (j.learning) out << " learning";
            else if (j.suspicion) out << " suspicion k=" << j.streak << " q=" << j.q << " q^k=" << j.probability;
            if (j.tight_level >= 0)
                out << " [<=" << j.tight_level << " K=" << j.tight_streak << " q=" << j.tight_q
                    << " L*q^K=" << j.tight_probability << "]";
            return out.str();
        };
        std::ostringstream msg;
        msg.precision(3);
        msg << "sample " << report_.samples << " t=" << std::fixed << std::setprecision(2) << monotonic_now() - started_
            << " late=" << std::setprecision(1) << sample_late_ * 1000 << "ms"
            << std::defaultfloat << std::setprecision(3) << " I=" << model_.interval() * 1000 << "ms n=" << model_.history_size()
            << " S_out=" << s_out << describe(last_judgement_) << " S_move=" << s_move << describe(last_stillness_)
            << " |" << detail.str();
        for (const auto& a : last_rank_runs_)
            msg << " | r" << a.rank << ' ' << to_string(a.kind) << " k=" << a.streak << " q=" << a.q
                << " m*q^k=" << a.probability << " for " << a.duration << "s/" << a.bar << 's';
        log(msg.str());
    }
    if (!still_suspects.empty()) {
        verify(still_suspects);
        return;
    }
    if (last_judgement_.hang || last_stillness_.hang) {
        // A verdict that every rank waits where it is must outlast the
        // healthy phases without movement this job has already had (a
        // polling code can sit in one MPI_Testany chain for seconds while
        // requests complete inside it): until then, keep sampling.
        const double still_for = unix_now() - progress_seen_;
        if (progress_seen_ > 0 && still_for < 2 * longest_still_phase_) {
            if (opt_.verbose)
                log("alarm held: no rank moved for " + std::to_string(still_for) + " s; healthy phases lasted up to " +
                    std::to_string(longest_still_phase_) + " s");
            return;
        }
        verify({});
    }
}

void Watcher::reject_astray_unwind(int rank, StackSample& s) {
    if (s.status != SampleStatus::ok || unwinds_.accept(rank, s.complete, progress_signature(s))) return;
    s.status = SampleStatus::error;
    s.error = "the unwind stopped short of the thread's entry";
}

std::vector<int> Watcher::rank_alarms(const std::vector<RankRoundSample>& round) {
    // Bonferroni over every rank that may be tested: the monitored ones each
    // round, the others in turn as visitors.
    last_rank_runs_ = rank_runs_.observe(round, static_cast<int>(ranks_.size()));
    std::vector<int> out;
    // A still rank is evidence only against peers that wait for it: a round
    // in which every rank stands still (a local kernel everywhere) raises
    // nothing; a hang shows up again once the others block.
    if (std::none_of(round.begin(), round.end(), [](const RankRoundSample& r) { return r.kind == StillKind::none; }))
        return out;
    for (const auto& a : last_rank_runs_)
        if (a.significant && a.outlasted) out.push_back(a.rank);
    return out;
}

double Watcher::next_delay() {
    // While a rank stands still, sample at the initial interval: the run
    // is the evidence, and a doubled interval would only delay the verdict.
    if (rank_runs_.any_run()) {
        std::uniform_real_distribution<double> jitter(0.0, opt_.interval_ms / 1000.0);
        return jitter(rng_) + opt_.interval_ms / 2000.0;
    }
    return model_.next_delay(rng_);
}

void Watcher::verify(const std::vector<int>& still_suspects) {
    ++verifications_;
    if (opt_.verbose) log("verification " + std::to_string(verifications_) + " begins");
    std::map<int, std::vector<StackSample>> seen;
    std::map<int, bool> exited;
    std::map<int, int> timeouts;
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
            wait_for_events(monotonic_now() + pause(rng_));
            reap();
            if (!monitoring_ || ended()) return;
        }
        // The verdict needs only the digests; the last round brings the
        // full stacks for the report (remote ranks: ~120 bytes, not ~3 kB).
        const bool full = round == rounds - 1;
        std::map<int, StackSample> round_samples = take_samples(ranks_, full);
        std::ostringstream detail;
        for (const auto& proc : ranks_) {
            StackSample s = std::move(round_samples[proc.rank]);
            reject_astray_unwind(proc.rank, s);
            if (s.status == SampleStatus::unreachable || s.status == SampleStatus::error ||
                s.status == SampleStatus::denied)
                failed[proc.rank] = s.error.empty() ? to_string(s.status) : s.error;
            if (s.status == SampleStatus::gone) exited[proc.rank] = true;
            if (s.status == SampleStatus::timeout) ++timeouts[proc.rank];
            if (s.status == SampleStatus::ok) {
                auto& list = seen[proc.rank];
                if (!list.empty() && progress_signature(list.front()) != progress_signature(s)) changed = true;
                if (opt_.verbose)
                    detail << " r" << proc.rank << ':' << s.state << ':' << outermost_mpi_call(s) << '#' << std::hex
                           << (progress_signature(s) & 0xffff) << std::dec;
                list.push_back(std::move(s));
            } else if (opt_.verbose) {
                detail << " r" << proc.rank << ':' << to_string(s.status);
            }
            if (s.status == SampleStatus::gone) changed = true;
        }
        if (opt_.verbose) log("verification round " + std::to_string(round + 1) + "/" + std::to_string(rounds) + ":" + detail.str());
    }
    std::vector<RankVerification> checks;
    std::map<int, StackSample> latest;
    for (const auto& proc : ranks_) {
        RankVerification v;
        v.rank = proc.rank;
        auto& samples = seen[proc.rank];
        // A rank that never stopped for us sits in uninterruptible sleep (D):
        // stuck in the kernel, a suspect like a rank stopped by a signal.
        const bool blocked = samples.empty() && timeouts[proc.rank] > 0;
        v.sampled = !samples.empty() || exited[proc.rank] || blocked;
        v.stopped = blocked;
        v.signature_changed = exited[proc.rank];  // ending is progress too
        if (!samples.empty()) {
            uint64_t first = progress_signature(samples.front());
            auto previous = last_sample_.find(proc.rank);
            if (previous != last_sample_.end() && progress_signature(previous->second) != first)
                v.signature_changed = true;
            size_t in_kernel = 0;  // D in every sample, not a passing page fault
            for (const auto& s : samples) {
                if (progress_signature(s) != first) v.signature_changed = true;
                if (s.state == 'T' || s.state == 't') v.stopped = true;
                if (s.state == 'D') ++in_kernel;
            }
            if (in_kernel == samples.size()) v.stopped = true;
            v.in_mpi = samples.back().in_mpi;
            v.in_mpi_any = std::any_of(samples.begin(), samples.end(), [](const StackSample& s) { return s.in_mpi; });
            v.mpi_call = outermost_mpi_call(samples.back());
            v.cpu_ticks_used = samples.back().cpu_ticks - samples.front().cpu_ticks;
            v.main_cpu_ticks_used = samples.back().main_cpu_ticks - samples.front().main_cpu_ticks;
            v.main_ran = main_thread_ran(samples.back().main_user_ticks - samples.front().main_user_ticks,
                                         v.main_cpu_ticks_used,
                                         std::any_of(samples.begin(), samples.end(),
                                                     [](const StackSample& s) { return s.state != 'S'; }));
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
        if (seen[rank].empty() && !exited[rank] && timeouts[rank] == 0) unseen_ranks[rank] = why;
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
    hang_found(verdict, latest);
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
        wait_for_events(monotonic_now() + 0.1);
        reap();
        if (!monitoring_ || ended()) return "the job ended during verification";
        std::map<int, StackSample> watched = take_samples(spinning, false);
        for (const auto& proc : spinning) {
            StackSample s = std::move(watched[proc.rank]);
            reject_astray_unwind(proc.rank, s);
            if (s.status == SampleStatus::gone) return "rank " + std::to_string(proc.rank) + " exited";
            if (s.status != SampleStatus::ok) continue;
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

RankReport Watcher::rank_report(const RankProcess& proc, const StackSample* s, const std::string& activity) const {
    RankReport r;
    r.rank = proc.rank;
    r.pid = proc.pid;
    r.node = proc.node;
    r.activity = activity;
    if (s) {
        r.state = s->state;
        r.cpu_seconds = static_cast<double>(s->cpu_ticks) / sysconf(_SC_CLK_TCK);
        r.frames = s->frames;
    }
    return r;
}

nlohmann::json Watcher::evidence() const {
    auto judgement = [](const Judgement& j) {
        nlohmann::json out{{"threshold", j.threshold}, {"q", j.q},          {"streak", j.streak},
                           {"probability", j.probability}, {"hang", j.hang}, {"learning", j.learning}};
        if (j.tight_level >= 0)
            out["lower_level"] = {{"level", j.tight_level}, {"streak", j.tight_streak}, {"q", j.tight_q},
                                  {"probability_times_levels", j.tight_probability}};
        return out;
    };
    return {{"history_samples", model_.history_size()},
            {"interval_doublings", model_.doublings()},
            {"s_out", judgement(last_judgement_)},
            {"s_move", judgement(last_stillness_)},
            {"rank_runs", rank_runs_json()},
            {"longest_healthy_still_s", {{"frozen", rank_runs_.longest_healthy(StillKind::frozen)},
                                         {"spinning", rank_runs_.longest_healthy(StillKind::spinning)},
                                         {"no_rank_moving", longest_still_phase_}}},
            {"verifications", verifications_},
            {"last_verification", last_verification_}};
}

nlohmann::json Watcher::rank_runs_json() const {
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& a : last_rank_runs_)
        runs.push_back({{"rank", a.rank},           {"kind", to_string(a.kind)}, {"streak", a.streak},
                        {"q", a.q},                 {"probability_times_ranks", a.probability},
                        {"seconds", a.duration},    {"bar_seconds", a.bar}});
    return runs;
}

void Watcher::fill_report_common() {
    report_.finished_at = unix_now();
    report_.interval_ms = model_.interval() * 1000;
    report_.alpha = opt_.alpha;
    report_.monitored_ranks = static_cast<int>(monitored_.size());
    report_.total_ranks = static_cast<int>(ranks_.size());
    report_.evidence = evidence();
}

void Watcher::hang_found(const Verdict& verdict, const std::map<int, StackSample>& stacks) {
    hang_ = true;
    monitoring_ = false;
    report_.verdict = "hang";
    report_.reason = verdict.reason;
    report_.suspect_ranks = verdict.suspects;
    report_.detected_at = unix_now();
    report_.suspicious_since = streak_started_ > 0 ? streak_started_ : report_.detected_at;
    report_.progress_last_seen = progress_seen_;
    // A suspect's still run may be older than any model's streak, and its
    // polling peers "moved" up to now: the hang's age is the run's.
    for (const auto& run : last_rank_runs_) {
        if (!std::count(verdict.suspects.begin(), verdict.suspects.end(), run.rank)) continue;
        const double since = report_.detected_at - (monotonic_now() - run.since);
        report_.suspicious_since = std::min(report_.suspicious_since, since);
        report_.progress_last_seen = report_.suspicious_since;
    }
    report_.ranks.clear();
    for (const auto& proc : ranks_) {
        auto it = stacks.find(proc.rank);
        std::string activity = "unsampled";
        if (it == stacks.end() && std::count(verdict.suspects.begin(), verdict.suspects.end(), proc.rank))
            activity = "uninterruptible (suspect): never stopped for sampling";
        if (it != stacks.end()) {
            bool suspect = std::count(verdict.suspects.begin(), verdict.suspects.end(), proc.rank) > 0;
            const char state = it->second.state;
            activity = state == 'T' || state == 't' ? "stopped"
                       : state == 'D'               ? "uninterruptible"
                       : it->second.in_mpi          ? "in_mpi"
                                                    : "outside_mpi";
            if (suspect) activity += " (suspect)";
        }
        report_.ranks.push_back(rank_report(proc, it == stacks.end() ? nullptr : &it->second, activity));
    }
    fill_report_common();
    log("HANG detected: " + verdict.reason);
    job_.hang(report_, [this] { reap(); });
}

int Watcher::run() {
    report_.started_at = unix_now();
    sigset_t set;
    sigemptyset(&set);
    for (int s : {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT}) sigaddset(&set, s);
    sigprocmask(SIG_BLOCK, &set, nullptr);

    std::string error;
    if (!job_.start(&error)) {
        log(error);
        return 127;
    }
    while (!ended()) {
        reap();  // also releases late stops of tracees, monitoring or not
        if (ended()) break;
        const double now = monotonic_now();
        if (monitoring_ && now >= next_discovery_) discover();
        if (monitoring_ && ranks_stable_ && !monitored_.empty() && now >= next_sample_) {
            sample_late_ = next_sample_ > 0 ? now - next_sample_ : 0;
            sample_round();
            next_sample_ = monotonic_now() + next_delay();
        }
        if (monotonic_now() >= job_.next_timer()) job_.timer(monotonic_now());
        if (ended()) break;
        double wake = monitoring_ ? std::min(next_discovery_, ranks_stable_ ? next_sample_ : next_discovery_) : now + 1.0;
        wait_for_events(std::min(wake, job_.next_timer()));
    }
    walker_.reap_pending();
    if (!hang_) {
        report_.verdict = "no_hang";
        report_.ranks.clear();
        for (const auto& proc : ranks_) {
            auto it = last_sample_.find(proc.rank);
            auto act = last_activity_.find(proc.rank);
            report_.ranks.push_back(rank_report(proc, it == last_sample_.end() ? nullptr : &it->second,
                                                act == last_activity_.end() ? "unsampled" : act->second));
        }
        fill_report_common();
    }
    return job_.finish(report_, hang_);
}

}  // namespace

int run_watcher(const DetectionSettings& settings, WatchedJob& job) {
    Watcher watcher(settings, job);
    return watcher.run();
}

}  // namespace jobsentry
