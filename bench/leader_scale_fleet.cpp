#include "bench/leader_scale_fleet.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/clock.h"

extern char** environ;

namespace jobsentry::bench {

Fleet::Fleet(FleetOptions o) : o_(std::move(o)) {
    o_.die_on_sample.resize(static_cast<size_t>(o_.agents), 0);
    o_.stall_on_sample.resize(static_cast<size_t>(o_.agents), 0);
    o_.lie_on_sample.resize(static_cast<size_t>(o_.agents), 0);
    o_.bye_on_sample.resize(static_cast<size_t>(o_.agents), 0);
    o_.refuse_on_sample.resize(static_cast<size_t>(o_.agents), 0);
    o_.slow_from_sample.resize(static_cast<size_t>(o_.agents), 0);
}

Fleet::~Fleet() {
    end();
    if (slots_) munmap(slots_, static_cast<size_t>(o_.agents) * sizeof(double));
    if (!slots_path_.empty()) unlink(slots_path_.c_str());
}

std::string Fleet::node_name(int index) {
    char name[16];
    std::snprintf(name, sizeof name, "n%04d", index + 1);
    return name;
}

std::string Fleet::start() {
    slots_path_ = "/dev/shm/jobsentry-leader-scale." + std::to_string(getpid());
    const size_t bytes = static_cast<size_t>(o_.agents) * sizeof(double);
    int fd = open(slots_path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || ftruncate(fd, static_cast<off_t>(bytes)) != 0) return slots_path_ + ": " + std::strerror(errno);
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return std::string("mmap: ") + std::strerror(errno);
    slots_ = static_cast<double*>(p);
    for (int i = 0; i < o_.agents; ++i) {
        const size_t k = static_cast<size_t>(i);
        std::vector<std::string> args = {o_.agent_binary,  "--port", std::to_string(o_.port), "--job",
                                         std::to_string(o_.job), "--node", node_name(i), "--index", std::to_string(i),
                                         "--first-rank", std::to_string(i * o_.ranks_per_node), "--ranks",
                                         std::to_string(o_.ranks_per_node), "--slots", slots_path_,
                                         "--die-on-sample", std::to_string(o_.die_on_sample[k]), "--stall-on-sample",
                                         std::to_string(o_.stall_on_sample[k]), "--lie-on-sample",
                                         std::to_string(o_.lie_on_sample[k]), "--bye-on-sample",
                                         std::to_string(o_.bye_on_sample[k]), "--refuse-on-sample",
                                         std::to_string(o_.refuse_on_sample[k]), "--slow-from-sample",
                                         std::to_string(o_.slow_from_sample[k])};
        if (o_.fan_in > 0)
            args.insert(args.end(), {"--fan-in", std::to_string(o_.fan_in), "--agents", std::to_string(o_.agents),
                                     "--relay-ports", std::to_string(o_.relay_ports)});
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        pid_t pid = 0;
        int rc = posix_spawn(&pid, o_.agent_binary.c_str(), nullptr, nullptr, argv.data(), environ);
        if (rc != 0) return "posix_spawn " + o_.agent_binary + ": " + std::strerror(rc);
        pids_.push_back(pid);
    }
    return {};
}

void Fleet::clear_answers() {
    if (slots_) std::fill(slots_, slots_ + o_.agents, 0.0);
}

double Fleet::last_answer() const {
    return slots_ ? *std::max_element(slots_, slots_ + o_.agents) : 0;
}

void Fleet::end() {
    // Agents whose leader closed end by themselves; a silent one is waiting in pause().
    for (size_t i = 0; i < pids_.size() && i < o_.stall_on_sample.size(); ++i)
        if (o_.stall_on_sample[i] != 0) kill(pids_[i], SIGKILL);
    const double until = monotonic_now() + 3;
    while (!pids_.empty()) {
        pids_.erase(std::remove_if(pids_.begin(), pids_.end(), [](pid_t pid) { return waitpid(pid, nullptr, WNOHANG) == pid; }),
                    pids_.end());
        if (pids_.empty()) break;
        if (monotonic_now() > until) {
            for (pid_t pid : pids_) kill(pid, SIGKILL);
            for (pid_t pid : pids_) waitpid(pid, nullptr, 0);
            pids_.clear();
            break;
        }
        usleep(20000);
    }
}

}  // namespace jobsentry::bench
