// `jobsentry sample PID`: stack samples of one process as the hang detector
// takes them, with what each cost (bench/sample_cost.sh drives it).
#pragma once

#include <string>
#include <vector>

namespace jobsentry {

int run_sample(const std::vector<std::string>& args);

}  // namespace jobsentry
