// `jobsentry simulate`: the thin command-line layer over simulation.h.
#pragma once

#include <string>
#include <vector>

namespace jobsentry {
int run_simulate(const std::vector<std::string>& args);
}
