#include "tools/loggp/loggp_command.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "base/beside_self.h"
#include "tools/loggp/loggp_fit.h"
#include "tools/loggp/loggp_options.h"
#include "tools/simulator/params_file.h"

extern char** environ;

namespace jobsentry {
namespace {

// $JOBSENTRY_LOGGP_PROBE, else in ../lib/jobsentry from the jobsentry binary
// (the build tree has the installed layout: src/CMakeLists.txt).
std::string find_probe() {
    if (const char* env = std::getenv("JOBSENTRY_LOGGP_PROBE")) return env;
    return find_beside_self("jobsentry-loggp-probe", {"", "../lib/jobsentry"});
}

constexpr size_t kMaxProbeOutput = 16u << 20;

// Runs argv (no shell) and returns its stdout (bounded); throws with its status.
std::string run_capture(const std::vector<std::string>& argv) {
    int fd[2];
    if (pipe(fd) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    std::vector<char*> cargv;
    for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    pid_t pid;
    int rc = posix_spawnp(&pid, cargv[0], &fa, nullptr, cargv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (rc != 0) {
        close(fd[0]);
        throw std::runtime_error("cannot run '" + argv[0] + "' (" + std::strerror(rc) +
                                 "); say the launcher with --mpirun");
    }
    std::string out;
    char buf[65536];
    for (ssize_t n; (n = read(fd[0], buf, sizeof buf)) != 0;) {
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        out.append(buf, static_cast<size_t>(n));
        if (out.size() > kMaxProbeOutput) {  // a probe prints a few kB: anything else is not ours
            close(fd[0]);
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
            throw std::runtime_error("'" + argv[0] + "' printed more than 16 MiB: not jobsentry-loggp-probe's output");
        }
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::string cmd;
        for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
        throw std::runtime_error("'" + cmd + "' failed (" +
                                 (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                                    : "signal " + std::to_string(WTERMSIG(status))) +
                                 ")");
    }
    return out;
}

// Whether `file` can be written: checked before measuring, so that a bad
// --out costs no run.
bool writable(const std::string& file) {
    if (access(file.c_str(), F_OK) == 0) return access(file.c_str(), W_OK) == 0;
    const std::filesystem::path dir = std::filesystem::path(file).parent_path();
    return access(dir.empty() ? "." : dir.c_str(), W_OK) == 0;
}

}  // namespace

int run_loggp(const std::vector<std::string>& args) {
    loggp::LoggpOptions opt = loggp::parse_loggp_options(args);
    if (opt.help) {
        std::cout << loggp::loggp_help();
        return 0;
    }
    if (!opt.error.empty()) {
        std::cerr << "jobsentry loggp: " << opt.error << '\n';
        return 2;
    }
    if (!writable(opt.out)) {
        std::cerr << "jobsentry loggp: --out " << opt.out << ": cannot be written (" << std::strerror(errno)
                  << "); accepted is a file in a writable directory\n";
        return 2;
    }
    std::string probe = opt.probe.empty() ? find_probe() : opt.probe;
    if (probe.empty()) {
        std::cerr << "jobsentry loggp: jobsentry-loggp-probe not found next to jobsentry; give --probe PATH "
                     "or set JOBSENTRY_LOGGP_PROBE\n";
        return 2;
    }
    std::vector<std::string> argv;
    std::istringstream words(opt.mpirun);
    for (std::string w; words >> w;) argv.push_back(w);
    std::string sizes;
    for (auto b : opt.bytes) sizes += (sizes.empty() ? "" : ",") + std::to_string(b);
    argv.insert(argv.end(), {probe, sizes, std::to_string(opt.reps), std::to_string(opt.burst)});
    try {
        const loggp::LogGPFit fit = loggp::fit_loggp(loggp::samples_from_probe(run_capture(argv)));
        std::cout << loggp::fit_text(fit);
        std::ofstream out(opt.out);
        out << sim::params_json(loggp::to_params(fit));
        out.close();
        if (!out) {
            std::cerr << "jobsentry loggp: cannot write " << opt.out << '\n';
            return 1;
        }
        std::cout << "wrote " << opt.out << " (jobsentry simulate --params " << opt.out << ")\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "jobsentry loggp: " << e.what() << '\n';
        return 1;
    }
}

}  // namespace jobsentry
