// `jobsentry ckpt SUBCOMMAND`: `advise` (advise_options.h) and `mtbf`
// (mtbf_command.cpp, the per-node MTBF from Slurm's node events).
#pragma once

#include <string>
#include <vector>

namespace jobsentry::ckpt {
int run_ckpt(const std::vector<std::string>& args);
int run_mtbf(const std::vector<std::string>& args);
}
