// What a root process of jobsentry runs with: the environment the plugin
// gives the processes it starts (spank/supervisor_process.cpp), and the one a
// root subcommand keeps of whatever it was given (root_environment.h). A
// user's LD_PRELOAD, PATH, SLURM_* or JOBSENTRY_* must reach neither.
#include "catch_compat.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "slurm/root_environment.h"
#include "slurm/plugin/supervisor_process.h"

using namespace jobsentry;

namespace {
const std::vector<std::string> kHostile{
    "LD_PRELOAD=/home/u/evil.so", "LD_LIBRARY_PATH=/home/u/lib", "PATH=/home/u/bin:/usr/bin",
    "SLURM_JOB_ID=7",             "SLURM_CONF=/etc/slurm/slurm.conf", "JOBSENTRY_RMACHECK_LIB=/home/u/x.so",
    "HWLOC_PLUGINS_PATH=/home/u", "DEBUGINFOD_URLS=http://evil",    "HOME=/home/u"};
}

TEST_CASE("root_environment keeps a fixed PATH and SLURM_CONF only", "[root_environment]") {
    CHECK(root_environment(kHostile) == std::vector<std::string>{kRootPath, "SLURM_CONF=/etc/slurm/slurm.conf"});
    CHECK(root_environment({}) == std::vector<std::string>{kRootPath});
    CHECK(root_environment({"SLURM_CONFX=1", "XSLURM_CONF=2"}) == std::vector<std::string>{kRootPath});
}

TEST_CASE("the plugin's children get its own environment, not the caller's", "[root_environment]") {
    if (geteuid() != 0) {
        WARN("not root: the plugin's state and log directories must be root's; skipped");
        return;
    }
    const std::string dir = std::filesystem::temp_directory_path() / ("jobsentry-env-" + std::to_string(getpid()));
    SitePolicy policy;
    policy.state_dir = dir + "/state";
    policy.log_dir = dir + "/log";
    std::filesystem::create_directories(dir);
    std::vector<std::pair<std::string, std::string>> saved;
    // As if the job's environment had leaked into slurmstepd's. SLURM_CONF is
    // passed on on purpose: in slurmstepd, getenv() sees the daemon's own.
    for (const auto& var : kHostile) {
        const auto eq = var.find('=');
        const char* old = getenv(var.substr(0, eq).c_str());
        saved.emplace_back(var.substr(0, eq), old ? old : "\x01");
        setenv(var.substr(0, eq).c_str(), var.substr(eq + 1).c_str(), 1);
    }
    unsetenv("LD_PRELOAD");  // /usr/bin/env below must still start in this test
    const std::string err = run_noise_probe_once(policy, 1, {"/usr/bin/env"}, 5000);
    for (const auto& [name, value] : saved)
        value == "\x01" ? unsetenv(name.c_str()) : setenv(name.c_str(), value.c_str(), 1);
    REQUIRE(err == "");
    std::ifstream log(policy.log_dir + "/job_1.noise.log");
    std::stringstream text;
    text << log.rdbuf();
    CHECK(text.str() == std::string(kRootPath) + "\nSLURM_CONF=/etc/slurm/slurm.conf\n");
    std::filesystem::remove_all(dir);
}
