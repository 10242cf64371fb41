#include "base/as_user.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace jobsentry {

std::string run_as_user(const UserIdentity& user, const std::function<std::string()>& work, int timeout_ms) {
    if (user.uid == 0) return "refusing to act as root for a job of root";
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
    pid_t pid = fork();
    if (pid < 0) {
        close(pipefd[0]);
        close(pipefd[1]);
        return std::string("fork: ") + std::strerror(errno);
    }
    if (pid == 0) {
        close(pipefd[0]);
        std::string result;
        bool groups = user.name.empty() ? setgroups(1, &user.gid) == 0 : initgroups(user.name.c_str(), user.gid) == 0;
        if (!groups || setresgid(user.gid, user.gid, user.gid) != 0 || setresuid(user.uid, user.uid, user.uid) != 0 ||
            getuid() != user.uid || geteuid() != user.uid)
            result = std::string("cannot switch to uid ") + std::to_string(user.uid) + ": " + std::strerror(errno);
        else
            result = work();
        if (result.size() > 4000) result.resize(4000);
        ssize_t ignored = write(pipefd[1], result.data(), result.size());
        (void)ignored;
        _exit(0);
    }
    close(pipefd[1]);
    std::string result;
    char buf[4096];
    pollfd p{pipefd[0], POLLIN, 0};
    bool timed_out = false;
    for (;;) {
        int ready = poll(&p, 1, timeout_ms);
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) {
            timed_out = true;
            break;
        }
        ssize_t n = read(pipefd[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        result.append(buf, static_cast<size_t>(n));
    }
    close(pipefd[0]);
    if (timed_out) kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (timed_out) return "gave up after " + std::to_string(timeout_ms) + " ms (a hung file system?)";
    if (!WIFEXITED(status)) return "the child writing as uid " + std::to_string(user.uid) + " died";
    return result;
}

std::string append_to_existing_file(const std::string& path, const std::string& text) {
    int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return "cannot open " + path + ": " + std::strerror(errno);
    ssize_t n = write(fd, text.data(), text.size());
    int err = errno;
    close(fd);
    if (n != static_cast<ssize_t>(text.size())) return "cannot append to " + path + ": " + std::strerror(err);
    return {};
}

}  // namespace jobsentry
