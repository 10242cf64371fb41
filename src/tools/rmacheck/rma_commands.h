// `jobsentry rma-check` (run an MPI program with the rmacheck preload module,
// then analyse its traces) and `jobsentry rma-report TRACE_DIR` (analyse only).
#pragma once

#include <string>
#include <vector>

namespace jobsentry {

struct RmaCheckOptions {
    bool precise = false;
    bool check_all = false;  // mode 1: watch the buffers of every operation (no sampling)
    std::string report;                           // JSON report file; empty: none
    std::string trace_dir = "jobsentry-rma-traces";
    std::string mpi = "auto";                     // which module to preload: auto, openmpi, mpich
    std::vector<std::string> command;
};

struct RmaCheckParse {
    RmaCheckOptions options;
    bool help = false;
    std::string error;  // non-empty: what was wrong and what is accepted
};

RmaCheckParse parse_rma_check_options(const std::vector<std::string>& args);
std::string rma_check_help();

int run_rma_check(const std::vector<std::string>& args);
int run_rma_report(const std::vector<std::string>& args);

// Exit status when the program succeeded but races were found.
constexpr int kRacesFound = 4;

}  // namespace jobsentry
