#include "slurm/root_environment.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

extern char** environ;

namespace jobsentry {

std::vector<std::string> root_environment(const std::vector<std::string>& env) {
    std::vector<std::string> out{kRootPath};
    // SLURM_CONF: the plugin passes slurmstepd's own (the site's), never the job's.
    for (const auto& var : env)
        if (var.rfind("SLURM_CONF=", 0) == 0) {
            out.push_back(var);
            break;
        }
    return out;
}

size_t enter_root_environment() {
    if (geteuid() != 0) return 0;
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) env.emplace_back(*e);
    const std::vector<std::string> keep = root_environment(env);
    clearenv();
    for (const auto& var : keep) {
        const size_t eq = var.find('=');
        setenv(var.substr(0, eq).c_str(), var.substr(eq + 1).c_str(), 1);
    }
    size_t dropped = 0;
    for (const auto& var : env) dropped += std::find(keep.begin(), keep.end(), var) == keep.end();
    return dropped;
}

}  // namespace jobsentry
