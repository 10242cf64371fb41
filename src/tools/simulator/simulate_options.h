// Options of `jobsentry simulate`: one table (name, default, help) drives the
// parser and --help. Parsing is pure (but for reading a --params FILE) so that
// every rule is unit-tested.
#pragma once

#include <string>
#include <vector>

#include "tools/simulator/simulation.h"

namespace jobsentry::sim {

struct SimulateParse {
    SimulationRequest request;
    bool json = false;
    bool predict = false;  // --predict: barrier and allreduce slowdowns at 1k, 16k, 1M (predict.h)
    std::string write_goal;  // --write-goal FILE: write the schedule as GOAL text instead of simulating
    bool help = false;
    std::string error;  // non-empty: what was wrong and what is accepted
};

// args: everything after "simulate".
SimulateParse parse_simulate_options(const std::vector<std::string>& args);
std::string simulate_help();

}  // namespace jobsentry::sim
