// The Watcher's sampling rounds: one sample of each monitored rank and of the visitors,
// fed to ParaStack's models (S_out, S_move) and to the per-rank still runs, which call for a
// verification (watcher_verify.cpp); and the time to the next round.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "base/clock.h"
#include "base/proc_files.h"
#include "hang/model/sample_record.h"
#include "hang/watch/watcher_internal.h"

namespace jobsentry {
namespace {

constexpr uint64_t kWarmSamples = 20;  // start-up cost (symbol tables of each rank) is behind us by then
constexpr uint64_t kThrottleEvery = 4;  // rounds between reads of a rank's CPU quota throttling, and of the launchers' output
constexpr double kSlowHoldP = 0.1;      // the CPU budget waits while the slow verdict's look is below this

double own_cpu_seconds() {
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    return self.ru_utime.tv_sec + self.ru_stime.tv_sec + (self.ru_utime.tv_usec + self.ru_stime.tv_usec) / 1e6;
}

}  // namespace

std::map<int, StackSample> Watcher::take_samples(const std::vector<RankProcess>& procs, bool full,
                                                 std::map<std::string, double>* link_ms) {
    std::map<int, StackSample> out;
    std::vector<RankProcess> remote;
    for (const auto& proc : procs) {
        if (proc.node.empty()) out[proc.rank] = walker_.sample(proc.pid, proc.start_time);
        else remote.push_back(proc);
    }
    if (!remote.empty() || link_ms)  // a link round asks nodes whose ranks are not sampled too
        for (auto& [rank, s] : job_.sample_remote(remote, full, link_ms)) out[rank] = std::move(s);
    for (const auto& proc : procs) {  // every sample reads the rank's CPU time: the job's, for the cost share
        const StackSample& s = out[proc.rank];
        if (s.cpu_ticks > 0) job_cpu_.observe(proc.node, proc.pid, proc.start_time, s.cpu_ticks);
    }
    return out;
}

void Watcher::sample_round() {
    std::vector<Activity> activities;
    std::vector<bool> moved;
    std::vector<RankRoundSample> round;
    std::vector<SlowTracker::Sampled> slow_round;
    // --verbose: the round for people, and for bench/model_replay. Strings, not streams: a stream's
    // construction (its locale) cost a round more than the ParaStack model does.
    std::string detail, records;
    bool someone_gone = false;
    std::vector<RankProcess> visited = monitored_;
    const size_t fixed = visited.size();  // the monitored ranks come first; then the rotating visitors
    rotate_visitors();
    visited.insert(visited.end(), visitors_.begin(), visitors_.end());
    // --verbose: each local rank's sleeps just before the look, as verification reads them
    // (own_wakeups.h), so that bench/model_replay can verify on these rounds too.
    std::map<int, uint64_t> sleeps;
    if (opt_.verbose)
        for (const auto& proc : visited)
            if (proc.node.empty())
                if (auto n = read_voluntary_switches(proc.pid, proc.pid)) sleeps[proc.rank] = *n;
    // Every few rounds of a job that spans nodes, the nodes' link readings (link_reader.h), all in
    // this round: the model compares the nodes' readings of one round.
    const bool link_round =
        report_.samples % LinkReader::kEvery == 0 &&
        std::any_of(ranks_.begin(), ranks_.end(), [](const RankProcess& r) { return !r.node.empty(); });
    std::map<std::string, double> links;
    const bool output_round = report_.samples % kThrottleEvery == 0;
    std::map<int, StackSample> samples = take_samples(visited, false, link_round ? &links : nullptr);
    // The slow verdict's own CPU this round (its readings and its model), counted apart from `model`:
    // what it adds to the sampling path (the scheduler times, which the hang verdict's verification
    // reads too, ride in the sample's stat reads). link_s: before the model's clock starts.
    double slow_s = 0, link_s = 0;
    if (link_round) {
        const double began = thread_cpu_now();
        add_own_link_reading(links);
        link_s = thread_cpu_now() - began;
    }
    const double model_began = thread_cpu_now();  // counted for the rounds that feed the model (report_.samples)
    for (size_t i = 0; i < visited.size(); ++i) {
        const RankProcess& proc = visited[i];
        const bool visitor = i >= fixed;
        StackSample s = std::move(samples[proc.rank]);
        const uint64_t progress = s.status == SampleStatus::ok ? progress_signature(s) : 0;
        reject_astray_unwind(proc.rank, s, progress);
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
            {proc.rank, s.in_mpi, exact_signature(s), s.state, s.cpu_ticks, progress, s.main_cpu_ticks,
             s.main_user_ticks},
            &rank_moved);
        round.push_back({proc.rank, still_kind(a, rank_moved), rank_moved, s.taken_at});
        slow_round.push_back(
            {proc.rank, proc.node, a, s.sched_known, s.main_run_ns, s.main_wait_ns, -1, rank_moved, s.stop_seconds});
        // Every 4th round, on this node, where its ranks outnumber their CPUs: whether a CPU quota
        // holds the rank back (two small reads on descriptors kept open; the slow verdict's hold on
        // ranks the kernel serves unevenly needs it, slow_rank.cpp; elsewhere unknown, which never
        // holds a verdict back).
        if (proc.node.empty() && ranks_share_cpus_ && report_.samples % kThrottleEvery == 0) {
            const double began = thread_cpu_now();
            if (auto throttled = walker_.cpu_throttled_periods(proc.pid))
                slow_round.back().throttled = static_cast<int64_t>(*throttled);
            slow_s += thread_cpu_now() - began;
        }
        last_activity_[proc.rank] = to_string(a);
        if (opt_.verbose) {
            records += " r" + std::to_string(proc.rank) + '=' + sample_record(s);
            if (sleeps.count(proc.rank)) records += " v" + std::to_string(proc.rank) + '=' + std::to_string(sleeps[proc.rank]);
            // Its quota's throttle count, where read this round: bench/slow_replay feeds it back.
            if (slow_round.back().throttled >= 0)
                records += " q" + std::to_string(proc.rank) + '=' + std::to_string(slow_round.back().throttled);
        }
        last_sample_[proc.rank] = std::move(s);
        if (opt_.verbose)
            detail += " r" + std::to_string(proc.rank) + (visitor ? "*" : "") + ':' + to_string(a) + (rank_moved ? "+" : "");
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
        report_.warm_job_cpu_s = static_cast<double>(job_cpu_.total_ticks()) / static_cast<double>(sysconf(_SC_CLK_TCK));
    }
    if (report_.samples >= kWarmSamples && slow_.baseline_complete() && budget_.due(monotonic_now()))
        observe_budget();
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
    const double slow_began = thread_cpu_now();
    // Every 4th round: the job's output so far, as its launchers on this node relay it (a small read
    // on a descriptor kept open per launcher).
    const int64_t output_bytes = output_round ? launchers_output() : -1;
    if (opt_.verbose && output_bytes >= 0) records += " out=" + std::to_string(output_bytes);
    track_slow(slow_round, links, output_bytes);
    const double model_ended = thread_cpu_now();
    slow_s += model_ended - slow_began;
    cost_.add(CostStep::model, model_ended - model_began - slow_s);
    cost_.add(CostStep::slow, slow_s + link_s);
    if (opt_.verbose) {
        log_round(s_out, s_move, detail);
        log("sample " + std::to_string(report_.samples) + " record:" + records);
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

SlowRankConfig slow_config(const DetectionSettings& o) {
    SlowRankConfig c;
    c.alpha = o.slow_alpha;
    c.baseline_rounds = o.slow_baseline_rounds;
    return c;
}

std::string local_node_name() {
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0 || !host[0]) return "node";
    return host;
}

void Watcher::add_own_link_reading(std::map<std::string, double>& out) {
    std::vector<pid_t> local;
    for (const auto& r : ranks_)
        if (r.node.empty()) local.push_back(r.pid);
    if (auto ms = links_.read(local, job_.uid())) out[""] = *ms;
    if (std::string error = links_.take_error(); !error.empty()) log(error);
    if (opt_.verbose && !out.empty()) {
        std::ostringstream line;
        line << "link readings (ms):";
        for (const auto& [node, ms] : out) line << ' ' << (node.empty() ? slow_.local_node() : node) << '=' << ms;
        log(line.str());
    }
}

int64_t Watcher::launchers_output() {
    for (const RankProcess& r : ranks_)  // the launchers of this node's ranks, each opened once
        if (r.node.empty() && r.launcher > 0 && launcher_files_.count(r.launcher) == 0 &&
            std::count(launchers_gone_.begin(), launchers_gone_.end(), r.launcher) == 0)
            launcher_files_.try_emplace(r.launcher, r.launcher, true);
    int64_t sum = 0;
    bool read = false;
    for (auto it = launcher_files_.begin(); it != launcher_files_.end();) {
        if (auto bytes = it->second.written_bytes()) {
            sum += static_cast<int64_t>(*bytes);
            read = true;
            ++it;
        } else {  // ended (or never readable): its descriptor, or a new one by its pid, names no launcher
            launchers_gone_.push_back(it->first);
            it = launcher_files_.erase(it);
        }
    }
    return read ? sum : -1;
}

void Watcher::track_slow(const std::vector<SlowTracker::Sampled>& round, const std::map<std::string, double>& links,
                         int64_t output_bytes) {
    // Visitors included: the model counts each rank over the rounds it was sampled in.
    if (slow_.observe(unix_now(), round, links, output_bytes) && opt_.verbose) log(slow_.look_line());
    const std::string news = slow_.news();
    if (news.empty()) return;
    log(news);
    if (slow_.verdict().status == SlowStatus::slow) job_.slow(slow_.verdict(), news);
}

void Watcher::log_round(double s_out, double s_move, const std::string& detail) const {
    auto describe = [](const Judgement& j) {
        std::ostringstream out;
        out.precision(3);
        if (j.learning) out << " learning";
        else if (j.suspicion) out << " suspicion k=" << j.streak << " q=" << j.q << " q^k=" << j.probability;
        if (j.tight_level >= 0)
            out << " [<=" << j.tight_level << " K=" << j.tight_streak << " q=" << j.tight_q
                << " L*q^K=" << j.tight_probability << "]";
        if (j.long_run) out << " long run " << j.run << '/' << j.run_bar;
        return out.str();
    };
    std::ostringstream msg;
    msg.precision(3);
    msg << "sample " << report_.samples << " t=" << std::fixed << std::setprecision(2) << monotonic_now() - started_
        << " late=" << std::setprecision(1) << sample_late_ * 1000 << "ms"
        << std::defaultfloat << std::setprecision(3) << " I=" << model_.interval() * 1000 << "ms n=" << model_.history_size()
        << " S_out=" << s_out << describe(last_judgement_) << " S_move=" << s_move << describe(last_stillness_)
        << " |" << detail;
    for (const auto& a : last_rank_runs_)
        msg << " | r" << a.rank << ' ' << to_string(a.kind) << " k=" << a.streak << " q=" << a.q
            << " m*q^k=" << a.probability << " for " << a.duration << "s/" << a.bar << 's';
    log(msg.str());
}

void Watcher::reject_astray_unwind(int rank, StackSample& s, std::optional<uint64_t> progress) {
    if (s.status != SampleStatus::ok || unwinds_.accept(rank, s.complete, progress ? *progress : progress_signature(s)))
        return;
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
    // Nor during a run of suspicious samples, nor while the slow verdict's last look came near
    // (its corrected p below kSlowHoldP: never in the balanced runs of bench/slow_detection.sh, often
    // under a fault): the budget only slows phases without evidence building.
    // Nor after any sample at or below t, learnt or held: q is learnt from the pairs such samples
    // begin, and pairs taken further apart than the runs they judge repeat less, so q would come out
    // low (docs/watch.md, "The cost of watching").
    const double delay = model_.next_delay(rng_);
    if (last_judgement_.streak > 0 || last_stillness_.streak > 0 || last_judgement_.at_most_threshold ||
        last_stillness_.at_most_threshold)
        return delay;
    const SlowVerdict& slow = slow_.verdict();
    if (slow.status == SlowStatus::no_slow && slow.p_value < kSlowHoldP) return delay;
    return std::min(delay * budget_.stretch(), 1.5 * opt_.max_interval_ms / 1000.0);
}

void Watcher::observe_budget() {
    // Called from the 20th round on, once the slow verdict's baseline is complete: the budget only
    // slows phases without evidence building, and the baseline's length is counted in rounds (its
    // windows after it are not: each must span min_window_s, so slower rounds only lengthen them). The
    // whole run's share, which the budget holds too, counts what came before (the start-up: every
    // binary's symbol tables), so it is paid back after.
    const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
    const double before = budget_.stretch();
    budget_.observe(monotonic_now(), own_cpu_seconds(),
                    static_cast<double>(job_cpu_.total_ticks()) / tick,
                    static_cast<double>(job_cpu_.local_ticks()) / tick, local_cpus_);
    if (std::abs(budget_.stretch() - before) < 0.1 * before) return;
    std::ostringstream msg;
    msg.precision(3);
    msg << "sampling " << (budget_.stretch() > before ? "slowed" : "sped up") << " to " << budget_.stretch()
        << "x the model's interval: the supervisor used " << budget_.window_share_percent()
        << " % of the job's CPU over the last window, " << budget_.whole_share_percent() << " % over the run ("
        << (budget_.full_node() ? "the job keeps its " + std::to_string(local_cpus_) + " CPUs busy"
                                : "the job leaves CPUs idle")
        << "; --cpu-budget " << budget_.budget_percent() << " %)";
    log(msg.str());
}

}  // namespace jobsentry
