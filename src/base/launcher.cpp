#include "base/launcher.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "base/process_tree.h"

namespace jobsentry {

Launch launch_command(const std::vector<std::string>& argv) {
    Launch out;
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        out.error = std::string("pipe: ") + std::strerror(errno);
        return out;
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);

    pid_t pid = fork();
    if (pid < 0) {
        out.error = std::string("fork: ") + std::strerror(errno);
        close(pipefd[0]);
        close(pipefd[1]);
        return out;
    }
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        execvp(args[0], args.data());
        int err = errno;
        ssize_t ignored = write(pipefd[1], &err, sizeof err);
        (void)ignored;
        _exit(127);
    }
    close(pipefd[1]);
    int err = 0;
    ssize_t n;
    do n = read(pipefd[0], &err, sizeof err);
    while (n < 0 && errno == EINTR);
    close(pipefd[0]);
    if (n == sizeof err) {
        int status;
        waitpid(pid, &status, 0);
        out.error = "cannot run '" + argv[0] + "': " + std::strerror(err);
        return out;
    }
    out.pid = pid;
    return out;
}

size_t terminate_tree(pid_t root, uid_t uid, int grace_ms, const std::function<void()>& reap) {
    std::vector<pid_t> targets = owned_descendants(root, uid);
    for (pid_t pid : targets) {
        kill(pid, SIGTERM);
        kill(pid, SIGCONT);
    }
    const long step_ms = 20;
    for (long waited = 0; waited < grace_ms; waited += step_ms) {
        reap();
        if (owned_descendants(root, uid).empty()) return targets.size();
        timespec pause{0, step_ms * 1000000};
        nanosleep(&pause, nullptr);
    }
    // Still below us after the grace period: no more asking.
    for (pid_t pid : owned_descendants(root, uid)) kill(pid, SIGKILL);
    for (int i = 0; i < 100 && !owned_descendants(root, uid).empty(); ++i) {
        reap();
        timespec pause{0, step_ms * 1000000};
        nanosleep(&pause, nullptr);
    }
    reap();
    return targets.size();
}

int shell_status(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 1;
}

}  // namespace jobsentry
