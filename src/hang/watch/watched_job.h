// What the watcher watches and how it acts: a command it launched
// (command_job.h, `jobsentry watch`) or a Slurm job on this node
// (slurm_job.h, `jobsentry supervise`). The watcher (watcher.h) owns the
// sampling, the model and the verification; a WatchedJob owns everything
// that differs: where ranks come from, when the job is over, where the
// report goes and what is done about a hang.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "base/log.h"
#include "hang/model/slow_verdict.h"
#include "hang/watch/discovery.h"
#include "hang/sampler/frame.h"
#include "hang/watch/report.h"

namespace jobsentry {

class WatchedJob {
public:
    virtual ~WatchedJob() = default;

    // Called once before anything else; false (with *error) ends the watch.
    virtual bool start(std::string* error) = 0;
    // Where the watcher's and the job's lines go (base/log.h).
    virtual const Logger& logger() const = 0;
    // The uid whose processes may be touched.
    virtual uid_t uid() const = 0;
    // This node's name as the job's resource manager knows it (the slow
    // verdict names the watcher's own ranks' node so, and a drain must name a
    // node slurmctld knows); known after start(). "": the host name.
    virtual std::string node_name() const { return {}; }
    // The ranks of every node; those of other nodes have RankProcess::node set.
    virtual Discovery find_ranks() = 0;
    // Samples of ranks on other nodes (their node agents), by rank; full
    // asks for the frames, not only the digests. Ranks that cannot be
    // reached are "unreachable". With link_ms, other nodes' link readings
    // too (link_reader.h), by node: those of the sampled ranks' nodes and
    // of others that AgentHub::sample asks in the same round.
    virtual std::map<int, StackSample> sample_remote(const std::vector<RankProcess>& ranks, bool full,
                                                     std::map<std::string, double>* link_ms) {
        (void)full;
        (void)link_ms;
        std::map<int, StackSample> out;
        for (const auto& r : ranks) out[r.rank].status = SampleStatus::unreachable;
        return out;
    }
    // Why part of the job cannot be seen now ("n3 cannot be seen (node agent
    // never connected on n3)"), or "" when every node can. Ranks there are unknown, and
    // they may be the ones making progress: no hang is confirmed meanwhile.
    virtual std::string unseen_part() const { return {}; }
    // Polled every turn: the command or the job has ended.
    virtual bool over() = 0;
    // A direct child of the supervisor exited (wait status).
    virtual void child_exited(pid_t pid, int wait_status) = 0;
    // The pid whose exit status the stack walker may have taken first.
    virtual pid_t child() const { return -1; }
    // SIGTERM, SIGINT, SIGHUP or SIGQUIT reached the supervisor. Returns why
    // monitoring stops, or "" to go on.
    virtual std::string signalled(int sig, const siginfo_t& info) = 0;
    // A verified hang: the report is complete; write it and act. reap lets
    // long actions collect exits meanwhile.
    virtual void hang(Report& report, const std::function<void()>& reap) = 0;
    // The slow verdict turned slow, or names other ranks or nodes than
    // before (line: the watcher's log line of it). Told only: never a reason
    // to act on the job by itself.
    virtual void slow(const SlowVerdict& verdict, const std::string& line) {
        (void)verdict;
        (void)line;
    }
    // The end of the watch; returns the supervisor's exit status.
    virtual int finish(Report& report, bool hang_found) = 0;
    // A timer of the job's own (the checkpoint signal of a Slurm job): the
    // monotonic time at which the watcher calls timer(), whether it samples
    // or not; infinity for none.
    virtual double next_timer() { return std::numeric_limits<double>::infinity(); }
    virtual void timer(double now) { (void)now; }
    // Where messages about monitoring go (besides the supervisor's stderr).
    virtual void problem(const std::string& message) { (void)message; }
};

}  // namespace jobsentry
