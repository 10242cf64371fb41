// The C API of jobsentry_ckpt.h: the clock and MPI around the pure
// CheckpointAdvisor (advisor.h). Everything is noexcept: an exception must
// never cross into the application's C or Fortran code.
#include "tools/checkpoint/include/jobsentry_ckpt.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>

#include "tools/checkpoint/advisor.h"

#define JOBSENTRY_API extern "C" __attribute__((visibility("default")))

namespace {

using jobsentry::ckpt::CheckpointAdvisor;

std::unique_ptr<CheckpointAdvisor> g_advisor;
double g_mark = 0;        // end of the last iteration or checkpoint
double g_ckpt_start = 0;  // jobsentry_ckpt_begin()

double now() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Used before (or without) jobsentry_ckpt_init: the fallback of one hour.
CheckpointAdvisor& advisor() {
    if (!g_advisor) jobsentry_ckpt_init(3600);
    return *g_advisor;
}

}  // namespace

JOBSENTRY_API int jobsentry_ckpt_init(double fallback_period_s) {
    try {
        std::vector<std::string> warnings;
        auto config = jobsentry::ckpt::config_from_env([](const char* name) { return std::getenv(name); },
                                                       fallback_period_s > 0 ? fallback_period_s : 3600, &warnings);
        for (const auto& w : warnings) std::fprintf(stderr, "jobsentry_ckpt: %s\n", w.c_str());
        g_advisor = std::make_unique<CheckpointAdvisor>(config);
        g_mark = now();
        return g_advisor->young_daly() ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

JOBSENTRY_API void jobsentry_ckpt_iteration_end(void) {
    double t = now();
    try {
        advisor().iteration_done(t - g_mark);
    } catch (...) {
        // Out of memory for one more iteration time: the decision uses those it has.
    }
    g_mark = t;
}

JOBSENTRY_API void jobsentry_ckpt_begin(void) {
    advisor();
    g_ckpt_start = now();
}

JOBSENTRY_API void jobsentry_ckpt_end(void) {
    double t = now();
    advisor().checkpoint_done(t - g_ckpt_start);
    g_mark = t;
}

JOBSENTRY_API int jobsentry_ckpt_should_checkpoint(MPI_Comm comm) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    int decision = 0;
    try {
        if (rank == 0) decision = advisor().should_checkpoint() ? 1 : 0;
    } catch (...) {
        decision = 0;
    }
    MPI_Bcast(&decision, 1, MPI_INT, 0, comm);
    return decision;
}

JOBSENTRY_API int jobsentry_ckpt_should_checkpoint_f(MPI_Fint comm) {
    return jobsentry_ckpt_should_checkpoint(MPI_Comm_f2c(comm));
}

JOBSENTRY_API double jobsentry_ckpt_threshold_s(void) {
    try {
        return advisor().threshold();
    } catch (...) {
        return 0;
    }
}

JOBSENTRY_API double jobsentry_ckpt_cost_s(void) { return advisor().checkpoint_cost(); }

JOBSENTRY_API int jobsentry_ckpt_count(void) { return static_cast<int>(advisor().checkpoints()); }
