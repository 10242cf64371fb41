// `jobsentry watch`: the watched job is a command the supervisor launches
// (typically mpirun); its ranks are the supervisor's descendants.
#pragma once

#include <optional>

#include "watch_options.h"
#include "watched_job.h"

namespace jobsentry {

class CommandJob : public WatchedJob {
public:
    explicit CommandJob(const WatchOptions& options);
    bool start(std::string* error) override;
    uid_t uid() const override { return uid_; }
    Discovery find_ranks() override;
    bool over() override { return status_.has_value(); }
    void child_exited(pid_t pid, int wait_status) override;
    pid_t child() const override { return child_; }
    std::string signalled(int sig, const siginfo_t& info) override;
    void hang(Report& report, const std::function<void()>& reap) override;
    int finish(Report& report, bool hang_found) override;

private:
    void log(const std::string& message) const;

    WatchOptions opt_;
    uid_t uid_;
    pid_t self_;
    pid_t child_ = -1;
    std::optional<int> status_;
};

}  // namespace jobsentry
