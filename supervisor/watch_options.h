// Options of `jobsentry watch`: one table (name, default, help) drives the
// parser and --help. Parsing is pure so that every rule is unit-tested.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jobsentry {

enum class HangAction { kill, report };

struct WatchOptions {
    double alpha = 0.001;
    int interval_ms = 400;
    int max_interval_ms = 6400;
    int ranks = 10;
    HangAction action = HangAction::kill;
    std::string report = "jobsentry-report.json";
    bool verbose = false;
    uint64_t seed = 0;      // 0: from the clock
    int grace_ms = 3000;    // SIGTERM to SIGKILL when killing the command tree
    int verify_rounds = 5;
    int spin_verify_ms = 3000;  // extra watch of suspects that compute outside MPI
    std::vector<std::string> command;
};

struct WatchParse {
    WatchOptions options;
    bool help = false;
    std::string error;  // non-empty: what was wrong and what is accepted
};

// args: everything after "watch".
WatchParse parse_watch_options(const std::vector<std::string>& args);
std::string watch_help();

}  // namespace jobsentry
