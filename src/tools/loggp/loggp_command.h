// `jobsentry loggp`: runs the probe under mpirun, fits, prints, writes.
#pragma once

#include <string>
#include <vector>

namespace jobsentry {
int run_loggp(const std::vector<std::string>& args);
}
