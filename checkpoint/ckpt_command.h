// `jobsentry ckpt SUBCOMMAND`: today only `advise` (advise_options.h).
#pragma once

#include <string>
#include <vector>

namespace jobsentry::ckpt {
int run_ckpt(const std::vector<std::string>& args);
}
