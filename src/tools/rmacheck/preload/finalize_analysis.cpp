// Analysis at MPI_Finalize (see finalize_analysis.h).
#include "tools/rmacheck/preload/finalize_analysis.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern char** environ;

namespace rmacheck::finalize {

namespace {
const char* analyser() {
    const char* v = std::getenv("JOBSENTRY_RMA_AT_FINALIZE");
    return v && *v ? v : nullptr;
}
}  // namespace

bool asked() { return analyser() != nullptr; }

void run_analysis(const char* trace_dir) {
    const char* program = analyser();
    if (!program || !trace_dir) return;
    if (program[0] != '/' || access(program, X_OK) != 0) {
        std::fprintf(stderr,
                     "jobsentry[rma-check rank 0]: error: JOBSENTRY_RMA_AT_FINALIZE must be the absolute path of the "
                     "jobsentry program, got '%s'%s; no analysis at MPI_Finalize (run `jobsentry rma-report %s`)\n",
                     program, program[0] == '/' ? " (not executable)" : "", trace_dir);
        return;
    }
    std::string report = std::string(trace_dir) + "/report.json";
    std::vector<std::string> args{"jobsentry", "rma-report", "--report", report, trace_dir};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<char*> envp;  // the analyser must not load this module again
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, "LD_PRELOAD=", 11) != 0) envp.push_back(*e);
    envp.push_back(nullptr);
    pid_t pid;
    int rc = posix_spawn(&pid, program, nullptr, nullptr, argv.data(), envp.data());
    if (rc != 0) {
        std::fprintf(stderr, "jobsentry[rma-check rank 0]: error: cannot start %s: %s\n", program, std::strerror(rc));
        return;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
}

}  // namespace rmacheck::finalize
