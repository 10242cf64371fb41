// `jobsentry supervise`: the watched job is a Slurm job on this node. Its
// ranks are the processes of its cgroup that belong to the job's user and
// carry a rank; a hang is written up as the user, noted in the job's
// AdminComment and acted on through libslurm. Monitoring problems go to the
// supervisor's log and to the job's output file; none of them ever touches
// the job itself.
#pragma once

#include <memory>
#include <optional>
#include <set>

#include "hang/multinode/agent_hub.h"
#include "base/as_user.h"
#include "tools/checkpoint/signal_schedule.h"
#include "slurm/slurm_client.h"
#include "slurm/supervise_options.h"
#include "hang/watch/watched_job.h"

namespace jobsentry {

class SlurmJob : public WatchedJob {
public:
    explicit SlurmJob(const SuperviseOptions& options);
    bool start(std::string* error) override;
    uid_t uid() const override { return info_.uid; }
    std::string node_name() const override { return node_; }
    Discovery find_ranks() override;
    std::map<int, StackSample> sample_remote(const std::vector<RankProcess>& ranks, bool full,
                                             std::map<std::string, double>* link_ms) override;
    std::string unseen_part() const override;
    bool over() override;
    void child_exited(pid_t, int) override {}
    std::string signalled(int sig, const siginfo_t& info) override;
    void hang(Report& report, const std::function<void()>& reap) override;
    void slow(const SlowVerdict& verdict, const std::string& line) override;
    int finish(Report& report, bool hang_found) override;
    void problem(const std::string& message) override;
    double next_timer() override;
    void timer(double now) override;

private:
    std::string current_comment() const;
    // Calls attempt until it returns true, pausing 2, 4, ... 30 s between
    // calls, for at most budget_s (and, while_job_runs, while the job's cgroup
    // exists): slurmctld restarting, munged down. false: given up, logged.
    bool retry_slurm(double budget_s, const std::string& what, const std::function<bool()>& attempt,
                     bool while_job_runs = true);
    std::string report_path() const;
    void tell_user(const std::string& line);
    void start_checkpoint_schedule();
    std::string checkpoint_clause();
    bool told_to_checkpoint() const;
    void requeue_without(const std::vector<std::string>& nodes);
    std::string start_multi_node(const std::string& own_node);
    void take_agent_events();
    std::string agents_note() const;

    const Logger& logger() const override { return log_; }

    SuperviseOptions opt_;
    Logger log_;
    SlurmJobInfo info_;
    UserIdentity user_;
    std::string cgroup_;
    std::string node_;  // this node's Slurm name (own_node_name())
    // Multi-node jobs: this supervisor is the job's leader and its node
    // agents sample the other nodes (agent/agent_hub.h, docs/multi-node.md).
    std::unique_ptr<AgentHub> hub_;
    double hub_started_ = 0;        // monotonic; for the warning about agents that never came
    bool unseen_warned_ = false;
    // A rank number that two nodes report (find_ranks): which of them is the rank is not known, so no
    // hang is claimed while it holds (unseen_part); "" when none.
    std::string ambiguous_rank_;
    bool ended_ = false;
    bool annotated_ = false;
    std::set<std::string> drained_;  // slow_action=drain: nodes already set DRAIN
    bool slow_notified_ = false;     // slow_action=notify: the batch shell has had its signal
    bool requeue_refused_ = false;   // slow_action=requeue_exclude: why not was logged once
    // Checkpoint coordination (--mtbf, --ckpt-signal): the Young/Daly
    // schedule of this run of the job (a requeued job starts a new one).
    std::optional<ckpt::SignalSchedule> schedule_;
    double job_mtbf_s_ = 0;
    std::string signal_name_;  // "USR1"; empty: no signal is sent
    int signals_sent_ = 0;
    double first_signal_ = 0;  // monotonic time of the first checkpoint signal sent
};

}  // namespace jobsentry
