// `jobsentry watch`: the watched job is a command the supervisor launches
// (typically mpirun); its ranks are the supervisor's descendants. With
// --attach PID it is a running process tree of the same user instead, the
// supervisor a separate process as under Slurm: killing the supervisor then
// leaves the job running, which is what the fault campaign needs.
#pragma once

#include <optional>

#include "hang/watch/watch_options.h"
#include "hang/watch/watched_job.h"

namespace jobsentry {

class CommandJob : public WatchedJob {
public:
    explicit CommandJob(const WatchOptions& options);
    bool start(std::string* error) override;
    uid_t uid() const override { return uid_; }
    Discovery find_ranks() override;
    bool over() override;
    void child_exited(pid_t pid, int wait_status) override;
    pid_t child() const override { return child_; }
    std::string signalled(int sig, const siginfo_t& info) override;
    void hang(Report& report, const std::function<void()>& reap) override;
    int finish(Report& report, bool hang_found) override;

private:

    const Logger& logger() const override { return log_; }

    WatchOptions opt_;
    Logger log_{"watch"};
    uid_t uid_;
    pid_t self_;
    pid_t child_ = -1;
    std::optional<int> status_;
    pid_t root_;                  // the tree whose ranks are watched: ourselves, or the attached process
    uint64_t root_start_ = 0;     // the attached process's start time: a reused pid is not the job
    bool let_go_ = false;         // attached, and asked to stop: the job runs on without us
};

}  // namespace jobsentry
