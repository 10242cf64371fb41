// `jobsentry noise`: the probe from the command line.
#pragma once

#include <string>
#include <vector>

namespace jobsentry {

// args: everything after "noise". Exit status: 0, 1 when a PU could not be
// measured or an output could not be written, 2 for bad input.
int run_noise(const std::vector<std::string>& args);

}  // namespace jobsentry
