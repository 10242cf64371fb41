#include "hang/watch/watcher.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "base/clock.h"
#include "hang/watch/discovery.h"
#include "base/launcher.h"  // shell_status
#include "base/proc_files.h"
#include "hang/watch/watcher_internal.h"

namespace jobsentry {

std::string ptrace_requirements() {
    std::string yama;
    auto scope = read_bounded("/proc/sys/kernel/yama/ptrace_scope", 16);
    if (scope && !scope->empty()) yama = " (kernel.yama.ptrace_scope is " + scope->substr(0, scope->find('\n')) + ")";
    return "jobsentry needs the same user as the ranks with kernel.yama.ptrace_scope <= 1" + yama +
           ", or CAP_SYS_PTRACE; ranks that made themselves non-dumpable, seccomp or a container policy "
           "can also forbid it. The command keeps running unmonitored.";
}

namespace {

// While the rank set stays the same, discovery backs off, doubling up to kDiscoveryMaxSeconds
// (watcher_internal.h): each look reads every process of the job's tree (a third of a 6-minute
// LAMMPS run's supervisor CPU at every 2 s). A rank that ends is seen by the next sample (discovery
// follows at once), so only a rank that appears beside the others (a second launcher started
// meanwhile) waits up to that long to be watched.
constexpr double kNoRanksWarningSeconds = 30.0;

}  // namespace

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

// wait_for_events returns at the first SIGCHLD, and every sample of ours
// leaves one pending (a tracee's ptrace stop notifies its tracer). Pauses that
// must last (verification rounds, the spin watch) wait again until their time:
// without this the 5 verification rounds of a 4-rank job were taken within
// 35 ms, inside one 40 ms stop of a rank throttled by SIGSTOP/SIGCONT, which
// was then claimed hung.
bool Watcher::pause_until(double until) {
    do {
        wait_for_events(until);
        reap();
        if (!monitoring_ || ended()) return false;
    } while (monotonic_now() < until);
    return true;
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
    const double every = discovery_every_;
    discovery_every_ = kDiscoverySeconds;  // kept only below, where nothing changed
    Discovery found = job_.find_ranks();
    for (const auto& r : found.ranks)  // discovery read each rank's stat anyway: the job's CPU time, for free
        if (r.node.empty()) job_cpu_.observe(r.node, r.pid, r.start_time, r.cpu_ticks);
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
    if (same(found.ranks, ranks_)) {
        discovery_every_ = std::min(2 * every, kDiscoveryMaxSeconds);
        next_discovery_ = monotonic_now() + discovery_every_;
        return;
    }
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
    std::vector<pid_t> local;
    for (const auto& r : ranks_)
        if (r.node.empty()) local.push_back(r.pid);
    local_cpus_ = cpus_allowed_together(local);
    ranks_share_cpus_ = local_cpus_ <= 0 || local.size() > static_cast<size_t>(local_cpus_);
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
    const std::string node = job_.node_name();
    slow_.set_local_node(node.empty() ? local_node_name() : node);
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
    if (!hang_) no_hang_report();
    return job_.finish(report_, hang_);
}

int run_watcher(const DetectionSettings& settings, WatchedJob& job) {
    Watcher watcher(settings, job);
    return watcher.run();
}

}  // namespace jobsentry
