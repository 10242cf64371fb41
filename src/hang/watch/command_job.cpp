#include "hang/watch/command_job.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <cstring>
#include <iostream>

#include "hang/watch/dot_render.h"
#include "base/launcher.h"
#include "base/proc_files.h"

namespace jobsentry {

CommandJob::CommandJob(const WatchOptions& options)
    : opt_(options), uid_(getuid()), self_(getpid()), root_(options.attach > 0 ? static_cast<pid_t>(options.attach) : self_) {}

bool CommandJob::start(std::string* error) {
    if (opt_.attach > 0) {
        auto stat = read_proc_stat(root_);
        if (!stat || stat->state == 'Z') {
            *error = "--attach " + std::to_string(root_) + ": no such process";
            return false;
        }
        if (process_owned_by(root_, uid_) != std::optional<bool>(true)) {
            *error = "--attach " + std::to_string(root_) + ": not a process of uid " + std::to_string(uid_) +
                     " (all of its uids must be ours)";
            return false;
        }
        // pid 1 or one of our own ancestors would make every process below
        // it, other users' jobs included when we are root, "the job".
        for (pid_t p = self_; p > 0;) {
            if (p == root_ || root_ == 1) {
                *error = "--attach " + std::to_string(root_) +
                         ": this is init or an ancestor of jobsentry itself; give the job's own root process (its mpirun)";
                return false;
            }
            auto up = read_proc_stat(p);
            p = up ? up->ppid : 0;
        }
        root_start_ = stat->start_time;
        return true;
    }
    // Orphaned ranks (their mpirun died) are re-parented to us, not to init,
    // so that the whole tree can still be found and ended.
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    Launch launch = launch_command(opt_.command);
    if (!launch.error.empty()) {
        *error = launch.error;
        return false;
    }
    child_ = launch.pid;
    return true;
}

Discovery CommandJob::find_ranks() { return discover_ranks(root_, uid_); }

bool CommandJob::over() {
    if (opt_.attach == 0) return status_.has_value();
    if (let_go_) return true;
    auto stat = read_proc_stat(root_);
    return !stat || stat->start_time != root_start_ || stat->state == 'Z' || stat->state == 'X';
}

void CommandJob::child_exited(pid_t pid, int wait_status) {
    if (pid == child_ && !status_) status_ = shell_status(wait_status);
}

std::string CommandJob::signalled(int sig, const siginfo_t& info) {
    if (opt_.attach > 0) {  // not our job to end: stop watching, leave it running
        let_go_ = true;
        return std::string("received ") + strsignal(sig) + "; the attached job runs on unwatched";
    }
    // A terminal's ^C reaches the whole foreground group, the command included;
    // a signal sent to us alone (kill, a batch system) is passed on.
    if (info.si_code == SI_USER || info.si_code == SI_QUEUE) kill(child_, sig);
    return std::string("received ") + strsignal(sig) + "; waiting for the command to end";
}

void CommandJob::hang(Report& report, const std::function<void()>& reap) {
    report.command = opt_.command;
    std::string err = write_hang_report(report, opt_.report);
    std::cerr << report_text(report);
    if (err.empty()) log_.info("report written to " + opt_.report + " and " + text_path_for(opt_.report));
    else log_.info("could not write the report: " + err);
    if (!report.stack_tree_graph_note.empty()) log_.info(report.stack_tree_graph_note);
    if (opt_.action == HangAction::kill) {
        log_.info("terminating the command (action kill)");
        // Attached: the root itself is the job's, not ours; it goes first so
        // that mpirun does not respawn or report its ranks' deaths as errors.
        if (root_ != self_) kill(root_, SIGTERM);
        terminate_tree(root_, uid_, opt_.grace_ms, reap);
        for (int waited = 0; root_ != self_ && !over() && waited < opt_.grace_ms; waited += 20) usleep(20000);
        if (root_ != self_ && !over()) kill(root_, SIGKILL);  // mpirun's own grace is over too
    } else {
        log_.info("action report: the command keeps running");
    }
}

int CommandJob::finish(Report& report, bool hang_found) {
    report.command = opt_.command;
    report.command_status = status_;
    std::string err = write_report(report, opt_.report);
    if (!err.empty()) log_.info("could not write the report: " + err);
    else if (opt_.verbose && !hang_found) log_.info("no hang; report written to " + opt_.report);
    // The end-of-run line, hang or not: what watching cost the job.
    log_.info(std::string(hang_found ? "hang; " : "no hang; ") + std::to_string(report.samples) + " samples; " +
              cpu_share_summary(report.supervisor_cpu_s, report.job_cpu_s));
    if (hang_found) return 3;
    if (opt_.attach > 0) return 0;  // not our child: its status is its parent's to see
    return status_.value_or(1);
}

}  // namespace jobsentry
