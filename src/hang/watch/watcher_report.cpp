// The Watcher's report (report.h): each rank's state, activity and stack, the evidence of the
// models, and the verdict, filled in when a hang is found or when the job ends without one.
#include <unistd.h>

#include <algorithm>

#include "base/clock.h"
#include "base/proc_files.h"
#include "hang/watch/watcher_internal.h"

namespace jobsentry {

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
        if (j.run_bar > 0) out["run_at_threshold"] = {{"samples", j.run}, {"alarm_at", j.run_bar}, {"alarm", j.long_run}};
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

void Watcher::fill_cost() {
    end_verification();  // the one that found a hang ends with this report
    for (const auto& proc : ranks_) {  // the ranks still here: their CPU time up to now
        if (!proc.node.empty()) continue;
        const auto stat = read_proc_stat(proc.pid);
        if (stat && stat->start_time == proc.start_time)
            job_cpu_.observe(proc.node, proc.pid, proc.start_time, stat->cpu_ticks);
    }
    report_.supervisor_cpu_s = process_cpu_now();
    report_.job_cpu_s = static_cast<double>(job_cpu_.total_ticks()) / static_cast<double>(sysconf(_SC_CLK_TCK));
    report_.cpu_cost = walker_.cost();
    report_.budget_percent = budget_.budget_percent();
    report_.budget_stretch_max = budget_.max_stretch_seen();
    report_.budget_stretch_at_end = budget_.stretch();
    report_.budget_seconds_slowed = budget_.seconds_stretched(monotonic_now());
    report_.budget_full_node = budget_.full_node();
    report_.cpu_cost.merge(cost_);
}

void Watcher::fill_report_common() {
    fill_cost();
    report_.finished_at = unix_now();
    report_.interval_ms = model_.interval() * 1000;
    report_.alpha = opt_.alpha;
    report_.monitored_ranks = static_cast<int>(monitored_.size());
    report_.total_ranks = static_cast<int>(ranks_.size());
    report_.evidence = evidence();
    report_.slow = slow_.verdict();
}

void Watcher::hang_found(const Verdict& verdict, const std::map<int, StackSample>& stacks,
                         const std::map<int, int>& twins) {
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
        if (auto twin = twins.find(proc.rank); twin != twins.end()) report_.ranks.back().stack_like_rank = twin->second;
    }
    fill_report_common();
    log("HANG detected: " + verdict.reason);
    job_.hang(report_, [this] { reap(); });
}

void Watcher::no_hang_report() {
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

}  // namespace jobsentry
