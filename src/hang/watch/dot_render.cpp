#include "hang/watch/dot_render.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

#include "hang/model/stack_tree_dot.h"

namespace jobsentry {
namespace {

// Waits for pid at most timeout_ms, then kills it. Error text, empty when it exited 0.
std::string wait_at_most(pid_t pid, const std::string& name, int timeout_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    int status = 0;
    for (;;) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) return "waitpid: " + std::string(std::strerror(errno));
        if (std::chrono::steady_clock::now() >= deadline) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            return name + " took longer than " + std::to_string(timeout_ms) + " ms and was killed";
        }
        usleep(10000);
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
    if (WIFEXITED(status)) return name + " exited with status " + std::to_string(WEXITSTATUS(status));
    return name + " ended by signal " + std::to_string(WTERMSIG(status));
}

// The supervisor blocks its signals and may ignore some: dot gets the defaults.
struct SpawnSetup {
    posix_spawn_file_actions_t files;
    posix_spawnattr_t attr;
    SpawnSetup(int stdin_fd, int stdout_fd) {
        posix_spawn_file_actions_init(&files);
        posix_spawn_file_actions_adddup2(&files, stdin_fd, 0);
        posix_spawn_file_actions_adddup2(&files, stdout_fd, 1);
        posix_spawn_file_actions_addclosefrom_np(&files, 3);
        posix_spawnattr_init(&attr);
        sigset_t none, all;
        sigemptyset(&none);
        sigfillset(&all);
        posix_spawnattr_setsigmask(&attr, &none);
        posix_spawnattr_setsigdefault(&attr, &all);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    }
    ~SpawnSetup() {
        posix_spawn_file_actions_destroy(&files);
        posix_spawnattr_destroy(&attr);
    }
};

}  // namespace

std::string render_svg(const std::string& program, const std::string& dot_path, const std::string& svg_path,
                       int timeout_ms) {
    // dot reads the graph from a descriptor we opened and checked, never by
    // name: the directory may be the user's, who could swap X.dot for a FIFO
    // (dot would block until its timeout, delaying the action) or a symlink.
    const int in = open(dot_path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (in < 0) return "cannot open " + dot_path + ": " + std::strerror(errno);
    struct stat st {};
    if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(in);
        return "cannot read " + dot_path + ": not a regular file";
    }
    TempFile out;
    std::string err = create_temp_beside(svg_path, &out);
    if (!err.empty()) {
        close(in);
        return err;
    }
    std::vector<std::string> args{program, "-Tsvg"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    char path_variable[] = "PATH=/usr/bin:/bin";
    char* envp[] = {path_variable, nullptr};
    pid_t pid = 0;
    int rc;
    {
        SpawnSetup setup(in, out.fd);
        rc = posix_spawn(&pid, program.c_str(), &setup.files, &setup.attr, argv.data(), envp);
    }
    close(in);
    err = rc != 0 ? "cannot run " + program + ": " + std::strerror(rc) : wait_at_most(pid, program, timeout_ms);
    if (!err.empty()) {
        discard_temp(out);
        return err;
    }
    return commit_temp(out, svg_path);
}

void write_stack_graph(Report& report, const std::string& json_path, const std::string& dot_program) {
    const std::string dot_path = sibling_path(json_path, ".dot"), svg_path = sibling_path(json_path, ".svg");
    report.stack_tree_dot.clear();
    report.stack_tree_svg.clear();
    report.stack_tree_graph_note.clear();
    unlink(svg_path.c_str());  // an older run's drawing must not pass for this report's
    std::string err = write_file_safely(dot_path, stack_tree_dot(stack_tree_of(report)));
    if (!err.empty()) {
        report.stack_tree_graph_note = "no graph: " + err;
        return;
    }
    report.stack_tree_dot = dot_path;
    if (access(dot_program.c_str(), X_OK) != 0) {
        report.stack_tree_graph_note = "SVG skipped: Graphviz is not installed (no " + dot_program + ")";
        return;
    }
    err = render_svg(dot_program, dot_path, svg_path);
    if (err.empty()) report.stack_tree_svg = svg_path;
    else report.stack_tree_graph_note = "SVG not drawn: " + err;
}

std::string write_hang_report(Report& report, const std::string& json_path) {
    write_stack_graph(report, json_path);
    return write_report(report, json_path);
}

}  // namespace jobsentry
