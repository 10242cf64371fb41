#include "slurm/plugin/supervisor_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "base/proc_files.h"

namespace jobsentry {
namespace {

std::string pid_file(const SitePolicy& policy, unsigned job_id, unsigned node_index) {
    return policy.state_dir + "/" + supervisor_stem(job_id, node_index) + ".pid";
}

std::string noise_marker(const SitePolicy& policy, unsigned job_id) {
    return policy.state_dir + "/job_" + std::to_string(job_id) + ".noise";
}

std::string rma_marker(const SitePolicy& policy, unsigned job_id) {
    return policy.state_dir + "/job_" + std::to_string(job_id) + ".rma";
}

// Creates dir (one level) for root only, and refuses one that others could
// have planted: it must be a real directory owned by root, not writable by others.
std::string ensure_private_dir(const std::string& dir, mode_t mode) {
    if (mkdir(dir.c_str(), mode) != 0 && errno != EEXIST) return "cannot create " + dir + ": " + std::strerror(errno);
    struct stat st {};
    if (lstat(dir.c_str(), &st) != 0) return "cannot inspect " + dir + ": " + std::strerror(errno);
    if (!S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & S_IWOTH) || (st.st_mode & S_IWGRP))
        return dir + " must be a directory owned by root and writable by root only";
    return {};
}

struct Recorded {
    pid_t pid = 0;
    uint64_t start_time = 0;
};

Recorded read_pid_file(const std::string& path) {
    Recorded r;
    int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return r;
    char buf[64] = {};
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return r;
    unsigned long long pid = 0, start = 0;
    if (std::sscanf(buf, "%llu %llu", &pid, &start) == 2 && pid > 0 && pid < (1ULL << 22)) {
        r.pid = static_cast<pid_t>(pid);
        r.start_time = start;
    }
    return r;
}

bool alive(const Recorded& r) {
    if (r.pid <= 0) return false;
    auto stat = read_proc_stat(r.pid);
    return stat && stat->start_time == r.start_time && stat->state != 'Z';
}

// What a child needs, built before fork(): slurmstepd is multi-threaded, so
// children may only make async-signal-safe calls.
struct ExecPlan {
    std::vector<std::string> argv_strings, env_strings;
    std::vector<char*> argv, env;
    explicit ExecPlan(const std::vector<std::string>& a) : argv_strings(a) {
        env_strings.push_back("PATH=/usr/sbin:/usr/bin:/sbin:/bin");
        if (const char* conf = std::getenv("SLURM_CONF")) env_strings.push_back(std::string("SLURM_CONF=") + conf);
        for (auto& s : argv_strings) argv.push_back(s.data());
        argv.push_back(nullptr);
        for (auto& e : env_strings) env.push_back(e.data());
        env.push_back(nullptr);
    }
};

// In a forked child: default signals, stdin from /dev/null, stdout/stderr to
// log_fd, every other descriptor closed but keep_fd (close-on-exec, -1 for
// none), then execve. On failure writes errno to keep_fd and exits 127.
[[noreturn]] void exec_child(const ExecPlan& plan, int null_fd, int log_fd, int keep_fd) {
    // Signals ignored or blocked by slurmstepd would stay so across exec.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int s = 1; s < NSIG; ++s) sigaction(s, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    if (null_fd >= 0) dup2(null_fd, 0);
    if (log_fd >= 0) {
        dup2(log_fd, 1);
        dup2(log_fd, 2);
    }
    if (keep_fd > 3) close_range(3, static_cast<unsigned>(keep_fd) - 1, 0);
    close_range(static_cast<unsigned>(std::max(keep_fd, 2)) + 1, ~0U, 0);
    execve(plan.argv[0], plan.argv.data(), plan.env.data());
    int err = errno;
    if (keep_fd >= 0) {
        ssize_t ignored = write(keep_fd, &err, sizeof err);
        (void)ignored;
    }
    _exit(127);
}

// Double fork: the intermediate child calls setsid and exits at once, so the
// supervisor is adopted by init, in a session of its own, and slurmstepd has
// no child of ours to wait for. Returns the supervisor's pid or -errno.
pid_t spawn_detached(const std::vector<std::string>& argv, int log_fd) {
    const ExecPlan plan(argv);
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) return -errno;
    int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    pid_t middle = fork();
    if (middle < 0) {
        int err = errno;
        close(pipefd[0]);
        close(pipefd[1]);
        if (null_fd >= 0) close(null_fd);
        return -err;
    }
    if (middle == 0) {
        setsid();
        pid_t supervisor = fork();
        if (supervisor == 0) exec_child(plan, null_fd, log_fd, pipefd[1]);  // the pipe closes on exec
        ssize_t ignored = write(pipefd[1], &supervisor, sizeof supervisor);
        (void)ignored;
        _exit(supervisor > 0 ? 0 : 1);
    }
    close(pipefd[1]);
    if (null_fd >= 0) close(null_fd);
    int status;
    while (waitpid(middle, &status, 0) < 0 && errno == EINTR) {
    }
    pid_t supervisor = -1;
    int err = 0;
    ssize_t n;
    do n = read(pipefd[0], &supervisor, sizeof supervisor);
    while (n < 0 && errno == EINTR);
    if (n != sizeof supervisor || supervisor <= 0) {
        close(pipefd[0]);
        return -EAGAIN;
    }
    do n = read(pipefd[0], &err, sizeof err);  // EOF once the exec succeeded
    while (n < 0 && errno == EINTR);
    close(pipefd[0]);
    return n == sizeof err ? -err : supervisor;
}

// Runs argv to its end, at most timeout_ms (then SIGKILL). "" when it ran
// and exited 0, otherwise what happened.
std::string run_bounded(const std::vector<std::string>& argv, int log_fd, int timeout_ms) {
    const ExecPlan plan(argv);
    int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    pid_t child = fork();
    if (child < 0) {
        int err = errno;
        if (null_fd >= 0) close(null_fd);
        return std::string("fork: ") + std::strerror(err);
    }
    if (child == 0) exec_child(plan, null_fd, log_fd, -1);
    if (null_fd >= 0) close(null_fd);
    int status = 0;
    for (int waited = 0;; waited += 10) {
        pid_t done = waitpid(child, &status, WNOHANG);
        if (done == child) break;
        if (done < 0 && errno != EINTR) return std::string("waitpid: ") + std::strerror(errno);
        if (waited >= timeout_ms) {
            kill(child, SIGKILL);
            while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
            }
            return argv[0] + " ran longer than " + std::to_string(timeout_ms) + " ms and was killed";
        }
        usleep(10000);
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
    if (WIFEXITED(status)) return argv[0] + " exited with status " + std::to_string(WEXITSTATUS(status));
    return argv[0] + " ended by signal " + std::to_string(WTERMSIG(status));
}

// run_bounded with stdout/stderr appended to log_dir/job_<id><suffix>.
std::string run_logged(const SitePolicy& policy, unsigned job_id, const char* suffix,
                       const std::vector<std::string>& argv, int timeout_ms) {
    std::string err = ensure_private_dir(policy.log_dir, 0750);
    if (!err.empty()) return err;
    const std::string log = policy.log_dir + "/job_" + std::to_string(job_id) + suffix;
    int log_fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0640);
    err = run_bounded(argv, log_fd, timeout_ms);
    if (log_fd >= 0) close(log_fd);
    return err;
}

}  // namespace

std::string start_supervisor(const SitePolicy& policy, unsigned job_id, unsigned node_index,
                             const std::vector<std::string>& argv) {
    std::string err = ensure_private_dir(policy.state_dir, 0700);
    if (err.empty()) err = ensure_private_dir(policy.log_dir, 0750);
    if (!err.empty()) return err;
    const std::string path = pid_file(policy, job_id, node_index);
    int fd = -1;
    for (int attempt = 0; attempt < 2 && fd < 0; ++attempt) {
        fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST) break;
        if (alive(read_pid_file(path))) return {};  // another step started it
        unlink(path.c_str());                       // left by a supervisor that died
    }
    if (fd < 0) return "cannot create " + path + ": " + std::strerror(errno);

    const std::string log = policy.log_dir + "/" + supervisor_stem(job_id, node_index) + ".log";
    int log_fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0640);
    pid_t pid = spawn_detached(argv, log_fd);
    if (log_fd >= 0) close(log_fd);
    if (pid < 0) {
        close(fd);
        unlink(path.c_str());
        return "cannot start " + argv[0] + ": " + std::strerror(-pid);
    }
    auto stat = read_proc_stat(pid);
    const std::string line = std::to_string(pid) + " " + std::to_string(stat ? stat->start_time : 0) + "\n";
    ssize_t written = write(fd, line.data(), line.size());
    close(fd);
    if (written != static_cast<ssize_t>(line.size())) return "cannot write " + path;
    return {};
}

std::string run_noise_probe_once(const SitePolicy& policy, unsigned job_id, const std::vector<std::string>& argv,
                                 int timeout_ms) {
    std::string err = ensure_private_dir(policy.state_dir, 0700);
    if (!err.empty()) return err;
    // Once per job on this node: the first step that gets here probes.
    const std::string marker = noise_marker(policy, job_id);
    int fd = open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return errno == EEXIST ? std::string() : "cannot create " + marker + ": " + std::strerror(errno);
    close(fd);
    return run_logged(policy, job_id, ".noise.log", argv, timeout_ms);
}

void forget_noise_probe(const SitePolicy& policy, unsigned job_id) { unlink(noise_marker(policy, job_id).c_str()); }

std::string mark_rma_job(const SitePolicy& policy, unsigned job_id) {
    std::string err = ensure_private_dir(policy.state_dir, 0700);
    if (!err.empty()) return err;
    const std::string marker = rma_marker(policy, job_id);
    int fd = open(marker.c_str(), O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return "cannot create " + marker + ": " + std::strerror(errno);
    close(fd);
    return {};
}

std::string analyse_rma_once(const SitePolicy& policy, unsigned job_id, const std::vector<std::string>& argv,
                             int timeout_ms) {
    if (unlink(rma_marker(policy, job_id).c_str()) != 0) return {};  // not asked, or done by another end
    return run_logged(policy, job_id, ".rma.log", argv, timeout_ms);
}

bool stop_supervisor(const SitePolicy& policy, unsigned job_id, unsigned node_index, int wait_ms) {
    Recorded r = read_pid_file(pid_file(policy, job_id, node_index));
    if (!alive(r) || kill(r.pid, SIGTERM) != 0) return false;
    // Its last act is the job's end annotation, which slurmctld refuses once
    // the job has finished: hold the step's end for that moment (tens of ms).
    for (int waited = 0; waited < wait_ms && alive(r); waited += 10) usleep(10000);
    return true;
}

}  // namespace jobsentry
