// Options of `jobsentry ckpt advise`: one Boost.Program_options spec drives
// parsing and --help; every value is checked here (durations need a unit,
// counts must be positive) so that the command exits 2 naming what was wrong.
// Pure: the iteration file is named here and read by the command.
#pragma once

#include <string>
#include <vector>

#include "tools/checkpoint/iteration_dist.h"

namespace jobsentry::ckpt {

struct AdviseOptions {
    double node_mtbf_s = 0;   // --mtbf, per node
    double nodes = 1;         // --nodes
    double ckpt_cost_s = 0;   // --ckpt-cost
    double recovery_s = -1;   // --recovery; -1: the checkpoint cost (the paper's R = C)
    double downtime_s = 0;    // --downtime
    bool have_iterations = false;  // --iter-mean or --iter-file given
    double iter_mean_s = 0;   // --iter-mean
    double iter_sd_s = 0;     // --iter-sd
    DistKind dist = DistKind::normal;  // --dist
    std::string iter_file;    // --iter-file: observed iteration times
    bool json = false;        // --json
};

struct AdviseParse {
    AdviseOptions options;
    bool help = false;
    std::string error;  // non-empty: which option and value, what is accepted
};

AdviseParse parse_advise_options(const std::vector<std::string>& args);
std::string advise_help();

// Iteration times from the text of an --iter-file: one per line, seconds or
// a duration with a unit; blank lines and '#' comments are skipped. A bad
// line sets *error naming its number and text.
std::vector<double> parse_iteration_times(const std::string& text, std::string* error);

}  // namespace jobsentry::ckpt
