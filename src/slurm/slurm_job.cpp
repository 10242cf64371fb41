#include "slurm/slurm_job.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <iostream>
#include <map>

#include "hang/multinode/node_tree.h"
#include "slurm/annotation.h"
#include "hang/watch/dot_render.h"
#include "base/clock.h"
#include "slurm/job_cgroup.h"
#include "base/proc_files.h"

namespace jobsentry {
namespace {

// slurmctld may be away when a hang is found (restarting, failing over to its
// backup, munged down): the annotation and the action are retried with a
// growing pause up to this long, while the job is still on the node. A hung
// job keeps its allocation until then; past it, the supervisor says so and
// leaves (the job's time limit ends it).
constexpr double kActionRetrySeconds = 900;
constexpr double kEndNoteRetrySeconds = 60;  // the verdict of a job that ended: informational
constexpr double kMaxRetryPause = 30;
// Agents start with the job (extern step) and look for the leader at least
// every 10 s: one still missing after this long is worth telling the user.
constexpr double kAgentsExpectedSeconds = 60;

bool directory_exists(const std::string& path) {
    struct stat st {};
    return lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

SlurmJob::SlurmJob(const SuperviseOptions& options)
    : opt_(options), log_("supervise", options.job_id, Logger::Stamp::utc) {}

namespace {

// This node's name: from the job cgroup we were started in when several
// slurmd share the host (slurm_<node>), else the short host name.
std::string own_node_name() {
    if (auto text = read_bounded("/proc/self/cgroup", 1 << 16)) {
        std::string node = node_of_cgroup_text(*text);
        if (!node.empty()) return node;
    }
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0) return {};
    std::string name = host;
    return name.substr(0, name.find('.'));
}

void sleep_seconds(double seconds) {
    timespec left{static_cast<time_t>(seconds), static_cast<long>((seconds - static_cast<time_t>(seconds)) * 1e9)};
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {
    }
}

}  // namespace

bool SlurmJob::start(std::string* error) {
    node_ = own_node_name();
    const std::string& node = node_;
    // slurmstepd's cgroups are the job's: leave them first, or the end of a
    // step would kill us with it before we can annotate the job.
    std::string left = leave_job_cgroups(opt_.cgroup_root);
    if (!left.empty()) log_.info(left);
    slurm_client_init();
    std::string err;
    for (int attempt = 0; attempt < 5; ++attempt) {
        if (auto info = slurm_job_info(opt_.job_id, &err)) {
            info_ = *info;
            break;
        }
        sleep(1);
    }
    if (info_.job_id == 0) {
        *error = "cannot watch job " + std::to_string(opt_.job_id) + ": " + err;
        return false;
    }
    if (info_.uid == 0) {
        *error = "job " + std::to_string(opt_.job_id) + " belongs to root; jobsentry watches users' jobs only";
        return false;
    }
    if (info_.nodes.size() > 1 && node != info_.nodes.front()) {
        // A step that does not start on the job's first node (mpirun's
        // daemons) also starts a supervisor: the leader is elsewhere.
        *error = "node " + node + " is not job " + std::to_string(opt_.job_id) + "'s first node (" +
                 info_.nodes.front() + ", where its supervisor runs); leaving";
        return false;
    }
    user_ = {info_.uid, info_.gid, info_.user};
    const double until = monotonic_now() + kJobCgroupWaitSeconds;
    while (true) {
        if (auto dir = find_job_cgroup(opt_.cgroup_root, info_.uid, opt_.job_id, node)) {
            cgroup_ = *dir;
            break;
        }
        if (monotonic_now() > until) {
            *error = "no cgroup of job " + std::to_string(opt_.job_id) + " under " + opt_.cgroup_root +
                     " (jobsentry needs ProctrackType=proctrack/cgroup to find a job's processes)";
            problem(*error);
            return false;
        }
        usleep(200000);
    }
    start_checkpoint_schedule();
    if (!opt_.detect) {
        log_.info("job of " + info_.user + " (uid " + std::to_string(info_.uid) + ") in " + cgroup_ +
            ": hang detection off, checkpoint signal only");
        return true;
    }
    if (info_.nodes.size() > 1) {
        std::string err = start_multi_node(node);
        if (!err.empty()) problem(err);
    }
    log_.info("watching job of " + info_.user + " (uid " + std::to_string(info_.uid) + ") in " + cgroup_ + "; alpha " +
        std::to_string(opt_.alpha) + ", interval " + std::to_string(opt_.interval_ms) + " ms, action " +
        to_string(opt_.action));
    return true;
}

void SlurmJob::start_checkpoint_schedule() {
    if (!(opt_.mtbf_s > 0)) return;
    const unsigned nodes = opt_.nodes ? opt_.nodes : std::max(1u, info_.num_nodes);
    job_mtbf_s_ = opt_.mtbf_s / nodes;
    ckpt::SignalScheduleConfig config;
    config.lambda = 1 / job_mtbf_s_;
    config.ckpt_cost_guess_s = opt_.ckpt_cost_s;
    // This run's start: after a requeue the job restarts from its last
    // checkpoint, so the work to protect starts again from zero.
    schedule_.emplace(config, monotonic_now());
    if (opt_.ckpt_signal > 0) {
        // Only a batch shell can be signalled alone (KILL_JOB_BATCH), as the
        // usual `--signal=B:USR1` trap expects.
        if (!info_.batch) problem("--checkpoint needs a batch job (sbatch): no checkpoint signal is sent");
        else if (const char* name = sigabbrev_np(opt_.ckpt_signal)) signal_name_ = name;
        else signal_name_ = std::to_string(opt_.ckpt_signal);
    }
    log_.info("job MTBF " + format_period(job_mtbf_s_) + " (" + std::to_string(nodes) + " nodes); " + checkpoint_clause());
}

std::string SlurmJob::checkpoint_clause() {
    if (!schedule_) return {};
    return checkpoint_note(schedule_->target_work(), schedule_->checkpoint_cost(), job_mtbf_s_, signal_name_,
                           signals_sent_);
}

double SlurmJob::next_timer() {
    if (!schedule_ || signal_name_.empty() || ended_) return WatchedJob::next_timer();
    return schedule_->next_signal_time();
}

void SlurmJob::timer(double now) {
    // The same path as action=notify: slurm_kill_job(KILL_JOB_BATCH).
    std::string err = slurm_notify(opt_.job_id, true, opt_.ckpt_signal, "");
    // A failed send is not retried at once: the next try is a period later.
    schedule_->signal_sent(now);
    if (err.empty() && ++signals_sent_ == 1) first_signal_ = now;
    log_.info(err.empty() ? "checkpoint signal SIG" + signal_name_ + " sent (" + std::to_string(signals_sent_) + ")"
                    : "could not send the checkpoint signal: " + err);
}

std::string SlurmJob::start_multi_node(const std::string& own_node) {
    // One connection per node: the soft limit of open files (often 1024)
    // goes up to the hard one.
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    // The leader is node 0 of the tree of agents (node_tree.h); it runs only on the job's first node.
    const NodeTree tree(info_.nodes.size(), opt_.fan_in);
    std::vector<std::string> children;
    std::map<std::string, std::vector<std::string>> below;  // what each child relays for
    for (size_t child : tree.children(0)) {
        children.push_back(info_.nodes[child]);
        for (size_t n : tree.below(child)) below[info_.nodes[child]].push_back(info_.nodes[n]);
    }
    hub_ = std::make_unique<AgentHub>(opt_.job_id, geteuid(), children, reply_seconds_for_height(tree.height(0)), below);
    std::string err = hub_->listen(opt_.leader_ports);
    if (!err.empty()) {
        hub_.reset();
        return "multi-node job: cannot listen for the node agents (" + err + "); only the ranks on " + own_node +
               " are watched";
    }
    hub_started_ = monotonic_now();
    log_.info("leader of a " + std::to_string(info_.nodes.size()) + "-node job on " + own_node + ": node agents reach it on port " +
        std::to_string(hub_->port()) +
        (below.empty() ? "" : " (a tree of agents of fan-in " + std::to_string(tree.fan_in()) + ", " +
                                  std::to_string(tree.height(0)) + " levels: " + std::to_string(children.size()) +
                                  " connect here, the others through them)"));
    return {};
}

void SlurmJob::take_agent_events() {
    if (!hub_) return;
    for (const std::string& event : hub_->take_events()) {
        // A lost agent is the user's business too (fewer ranks are watched);
        // connections are only logged.
        if (event.find(" lost ") != std::string::npos) problem(event);
        else log_.info(event);
    }
}

std::string SlurmJob::agents_note() const {
    if (!hub_) return {};
    std::string note;
    for (const auto& [node, why] : hub_->unseen_nodes()) note += (note.empty() ? "" : ", ") + why;
    return note;
}

std::string SlurmJob::unseen_part() const {
    if (!hub_) return {};
    const auto unseen = hub_->unseen_nodes();
    if (unseen.empty()) return ambiguous_rank_;
    std::string out = unseen.begin()->first + " cannot be seen (" + unseen.begin()->second + ")";
    if (unseen.size() > 1) out += " and " + std::to_string(unseen.size() - 1) + " more nodes";
    return out;
}

std::map<int, StackSample> SlurmJob::sample_remote(const std::vector<RankProcess>& ranks, bool full,
                                                   std::map<std::string, double>* link_ms) {
    if (!hub_) return WatchedJob::sample_remote(ranks, full, link_ms);
    hub_->accept_agents();  // costs one accept4 when nobody is waiting
    auto out = hub_->sample(ranks, full, link_ms);
    take_agent_events();
    return out;
}

Discovery SlurmJob::find_ranks() {
    Discovery found = discover_ranks_among(cgroup_pids(cgroup_), info_.uid);
    if (hub_) {
        hub_->accept_agents();
        std::vector<RankProcess> remote = hub_->refresh_ranks();
        take_agent_events();
        if (!unseen_warned_ && monotonic_now() - hub_started_ > kAgentsExpectedSeconds) {
            if (const std::string unseen = unseen_part(); !unseen.empty()) {
                unseen_warned_ = true;  // once: the end annotation says it again
                problem(unseen + " after " + std::to_string(int(kAgentsExpectedSeconds)) +
                        " s: no hang is claimed while part of the job cannot be seen");
            }
        }
        JobRanks merged = merge_reported_ranks(std::move(found.ranks), node_, remote);
        if (!merged.ambiguous.empty() && merged.ambiguous != ambiguous_rank_)
            problem(merged.ambiguous + ": no hang is claimed while two nodes report one rank number");
        ambiguous_rank_ = std::move(merged.ambiguous);
        found.ranks = std::move(merged.ranks);
        return found;
    }
    found.ranks = newest_of_each_rank(found.ranks);
    return found;
}

bool SlurmJob::over() {
    if (!ended_ && !directory_exists(cgroup_)) ended_ = true;
    return ended_;
}

std::string SlurmJob::signalled(int sig, const siginfo_t&) {
    log_.info(std::string("received ") + strsignal(sig) + ": the job is ending");
    ended_ = true;
    return {};
}

std::string SlurmJob::report_path() const {
    const std::string dir = opt_.report_dir.empty() ? info_.work_dir : opt_.report_dir;
    std::string name = "jobsentry-" + std::to_string(opt_.job_id);
    if (info_.restart_count > 0) name += "." + std::to_string(info_.restart_count);
    return dir + "/" + name + ".json";
}

void SlurmJob::tell_user(const std::string& line) {
    if (info_.std_out.empty() || info_.std_out == "/dev/null") return;
    const std::string path = info_.std_out;
    std::string err = run_as_user(user_, [&] { return append_to_existing_file(path, line + "\n"); });
    if (!err.empty()) log_.info("could not write to the job's output: " + err);
}

void SlurmJob::problem(const std::string& message) {
    log_.info(message);
    tell_user("jobsentry: " + message);
}

// The job's AdminComment now: other parts of jobsentry (the noise probe) may
// have added their clauses since this supervisor started.
std::string SlurmJob::current_comment() const {
    std::string err;
    auto now = slurm_job_info(opt_.job_id, &err);
    return now ? now->admin_comment : info_.admin_comment;
}

void SlurmJob::hang(Report& report, const std::function<void()>&) {
    // In this order: the report, the annotation, then the action, so that
    // whatever the action does to the job, the evidence is already out.
    const std::string action = to_string(opt_.action);
    report.slurm_job_id = opt_.job_id;
    report.action_taken = action;
    if (hub_) report.nodes = hub_->nodes_json();
    std::string path = report_path();
    // The child's time limit leaves room for Graphviz's own inside it.
    const int limit_ms = kRenderTimeoutMs + 10000;
    std::string err = path.size() > 4096 || (info_.work_dir.empty() && opt_.report_dir.empty())
                          ? "no directory for the report"
                          : run_as_user(user_, [&] { return write_hang_report(report, path); }, limit_ms);
    if (err.empty()) log_.info("report written to " + path + " and " + text_path_for(path) + "; stack tree graph " + sibling_path(path, ".dot"));
    else {
        log_.info("could not write the report: " + err);
        path.clear();
    }
    std::cerr << report_text(report);
    const std::string comment = with_note(
        with_note(hang_annotation(report, action, path, current_comment()), checkpoint_clause()), agents_note());
    tell_user(comment);
    bool acted = false, job_over = false;
    int attempts = 0;
    const bool done = retry_slurm(kActionRetrySeconds, "the annotation and the action " + action, [&] {
        if (!annotated_) {
            std::string e = slurm_set_admin_comment(opt_.job_id, comment, &job_over);
            annotated_ = e.empty();
            log_.info(e.empty() ? "AdminComment set: " + comment : "could not set the AdminComment: " + e);
        }
        // Ended meanwhile (by itself, its time limit or scancel): nothing left
        // to act on, and slurmctld takes no annotation of a finished job.
        if (job_over) {
            log_.info("the job has finished meanwhile: the action " + action + " is not taken, nothing retried");
            return true;
        }
        // The evidence before the action, as long as slurmctld may just be
        // away; a job whose annotation keeps failing is acted on anyway.
        if (!annotated_ && ++attempts < 3) return false;
        if (!acted) {
            std::string e;
            switch (opt_.action) {
                case SlurmAction::cancel: e = slurm_cancel(opt_.job_id, &job_over); break;
                case SlurmAction::requeue: e = slurm_requeue_job(opt_.job_id, &job_over); break;
                case SlurmAction::notify: e = slurm_notify(opt_.job_id, info_.batch, opt_.notify_signal, comment); break;
                case SlurmAction::report: break;
            }
            acted = e.empty();
            log_.info(e.empty() ? "action " + action + " done" : "action " + action + " failed: " + e);
            if (job_over) {
                log_.info("the job has finished meanwhile: the action " + action + " is not retried");
                return true;
            }
        }
        return annotated_ && acted;
    });
    if (!done && !acted && !job_over) problem("the hang was found but the action " + action + " could not be taken: slurmctld did not accept it");
    // A cancelled or requeued job is over for this supervisor: a requeued job
    // comes back with the same id and gets a supervisor of its own.
    if (opt_.action == SlurmAction::cancel || opt_.action == SlurmAction::requeue) ended_ = true;
}

void SlurmJob::slow(const SlowVerdict& verdict, const std::string& line) {
    // Told, never acted on: the job runs on. One attempt, no retries: the
    // sampling thread must not wait for slurmctld, and the next change of
    // the verdict (or the end's annotation, which keeps this clause) comes.
    tell_user("jobsentry: " + line);
    std::string comment;
    const std::string err = slurm_set_comment_clause(opt_.job_id, kSlowClauseKey, slow_clause(verdict), &comment);
    log_.info(err.empty() ? "AdminComment set: " + comment : "could not set the slow verdict in the AdminComment: " + err);
    if (opt_.slow_action == SlowAction::notify && !slow_notified_) {
        // Once per job: the user's trap decides (checkpoint and end, resubmit elsewhere, or go on).
        const std::string e = slurm_notify(opt_.job_id, info_.batch, opt_.notify_signal, "jobsentry: " + line);
        slow_notified_ = e.empty();
        log_.info(e.empty() ? "slow_action notify: signal " + std::to_string(opt_.notify_signal) + " sent to the batch shell"
                            : "slow_action notify failed: " + e);
    }
    if (!drains(opt_.slow_action)) return;
    // slow_action=drain (site policy): the node takes no new jobs until an
    // administrator looks; this job runs on. Once per node and job.
    const std::vector<std::string> nodes = nodes_to_drain(verdict, info_.nodes);
    for (const std::string& node : nodes) {
        if (!drained_.insert(node).second) continue;
        const std::string reason = drain_reason(opt_.job_id, verdict);
        const std::string e = slurm_drain_node(node, reason);
        log_.info(e.empty() ? "node " + node + " set DRAIN: " + reason : "could not drain node " + node + ": " + e);
        if (!e.empty()) drained_.erase(node);  // the next change of the verdict tries again
    }
    if (opt_.slow_action == SlowAction::requeue_exclude) requeue_without(nodes);
}

// The checkpoint coordination has told the job to checkpoint (its signal was
// sent) and the checkpoint's cost has passed since: a requeued run resumes
// from that checkpoint rather than from the start. What the application did
// with the signal is its own; this is what the supervisor knows.
bool SlurmJob::told_to_checkpoint() const {
    return schedule_ && signals_sent_ > 0 && monotonic_now() - first_signal_ >= schedule_->checkpoint_cost();
}

// slow_action=requeue_exclude: the job runs again without the slow node(s),
// where it asked for it and has a checkpoint to resume from; else it runs on.
void SlurmJob::requeue_without(const std::vector<std::string>& named) {
    // Only nodes of this job that slurmctld has drained: a requeue that could
    // not exclude the slow node would only cost the job its progress.
    std::vector<std::string> nodes, refused;
    for (const std::string& n : named)
        (std::count(info_.nodes.begin(), info_.nodes.end(), n) && drained_.count(n) ? nodes : refused).push_back(n);
    for (const std::string& n : refused)
        log_.info("slow_action requeue_exclude: " + n + " is not a drained node of this job; not excluded");
    if (ended_ || nodes.empty()) return;
    const std::string why_not = !opt_.slow_requeue ? "the job did not ask for it (--hang-detect=slow_requeue=yes)"
                                : !told_to_checkpoint() ? "no checkpoint yet (the job has not been told to checkpoint: --checkpoint)"
                                                        : "";
    std::string list;
    for (const std::string& n : nodes) list += (list.empty() ? "" : ",") + n;
    if (!why_not.empty()) {
        if (!requeue_refused_) log_.info("slow_action requeue_exclude: job not requeued without " + list + ": " + why_not);
        requeue_refused_ = true;
        return;
    }
    bool requeued = false;
    const std::string e = slurm_requeue_excluding(opt_.job_id, list, &requeued);
    log_.info(e.empty()    ? "slow_action requeue_exclude: job requeued without " + list
              : requeued ? "slow_action requeue_exclude: job requeued, but " + list + " may not be excluded: " + e
                         : "slow_action requeue_exclude: could not requeue the job without " + list + ": " + e);
    // A requeued job comes back with the same id and a supervisor of its own.
    if (requeued) ended_ = true;
}

bool SlurmJob::retry_slurm(double budget_s, const std::string& what, const std::function<bool()>& attempt,
                           bool while_job_runs) {
    const double give_up = monotonic_now() + budget_s;
    double pause = 2;
    for (int tries = 1;; ++tries) {
        if (attempt()) {
            if (tries > 1) log_.info(what + ": done at attempt " + std::to_string(tries));
            return true;
        }
        if (while_job_runs && !directory_exists(cgroup_)) {
            log_.info(what + ": the job left the node meanwhile; not retried");
            return false;
        }
        if (monotonic_now() + pause > give_up) {
            log_.info(what + ": given up after " + std::to_string(tries) + " attempts in " + std::to_string(int(budget_s)) + " s");
            return false;
        }
        log_.info(what + ": attempt " + std::to_string(tries) + " failed; again in " + std::to_string(int(pause)) + " s");
        sleep_seconds(pause);
        pause = std::min(2 * pause, kMaxRetryPause);
    }
}

int SlurmJob::finish(Report& report, bool hang_found) {
    {  // what watching cost us, for bench/multi_node.sh
        rusage self{};
        getrusage(RUSAGE_SELF, &self);
        const double cpu = self.ru_utime.tv_sec + self.ru_stime.tv_sec + (self.ru_utime.tv_usec + self.ru_stime.tv_usec) / 1e6;
        std::string line = "leader cost: cpu_s=" + std::to_string(cpu) +
                           " wall_s=" + std::to_string(report.finished_at - report.started_at) +
                           " samples=" + std::to_string(report.samples) + " ranks=" + std::to_string(report.total_ranks);
        if (report.warm_at > 0)  // from the 20th sample on
            line += " warm_cpu_s=" + std::to_string(cpu - report.warm_cpu_s) +
                    " warm_wall_s=" + std::to_string(report.finished_at - report.warm_at) +
                    " warm_samples=" + std::to_string(report.samples - 20);
        if (hub_)
            line += " requests=" + std::to_string(hub_->requests()) + " bytes_sent=" + std::to_string(hub_->bytes_sent()) +
                     " bytes_received=" + std::to_string(hub_->bytes_received()) +
                    " refused_connections=" + std::to_string(hub_->refused()) + " nodes=" + hub_->nodes_json().dump();
        log_.info(line);
    }
    if (!hang_found) {
        const std::string previous = current_comment();
        const std::string verdict = opt_.detect ? end_annotation(report, previous)
                                                : "jobsentry: hang detection off" + part_clauses(previous);
        const std::string comment = with_note(with_note(verdict, checkpoint_clause()), agents_note());
        // The job has ended (its cgroup may be gone): a short bounded retry,
        // none once slurmctld has closed the job's record (scancel, requeue):
        // the supervisor would only keep the job's slurmstepd waiting.
        retry_slurm(kEndNoteRetrySeconds, "the end's AdminComment", [&] {
            bool job_over = false;
            std::string err = slurm_set_admin_comment(opt_.job_id, comment, &job_over);
            log_.info(err.empty()  ? "no hang; " + std::to_string(report.samples) + " samples; " +
                                        cpu_share_summary(report.supervisor_cpu_s, report.job_cpu_s) +
                                        "; AdminComment set"
                      : job_over ? "no hang; the job's record is closed, its AdminComment stays as it was: " + err
                                 : "no hang; could not set the AdminComment: " + err);
            return err.empty() || job_over;
        }, false);
    }
    if (!opt_.pid_file.empty()) {
        // Only our own record: a requeued job's new supervisor may own it already.
        auto text = read_bounded(opt_.pid_file, 64);
        if (text && text->rfind(std::to_string(getpid()) + " ", 0) == 0) unlink(opt_.pid_file.c_str());
    }
    return hang_found ? 3 : 0;
}

}  // namespace jobsentry
