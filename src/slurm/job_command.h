// The shared front of the per-job commands that jobsentry.so runs as root
// (noise-job at job start, rma-job at job end): their common options, the
// parsing, and loading the job through libslurm.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "base/log.h"
#include "slurm/slurm_client.h"

namespace jobsentry {

struct JobCommand {
    unsigned job_id = 0;
    std::string report_dir;  // empty: the job's working directory
    Logger log{""};          // jobsentry[NAME job ID], time-stamped: these run under jobsentry.so
};

// Adds --job-id and --report-dir to desc, parses args. Returns the exit
// status when the command must stop here (0 after --help, 2 on misuse, with
// the message printed), nullopt to go on.
std::optional<int> parse_job_command(const std::vector<std::string>& args, const std::string& name,
                                     boost::program_options::options_description& desc, JobCommand* out);

// The job as slurmctld knows it, or nullopt after logging why.
std::optional<SlurmJobInfo> load_job(const JobCommand& command);

}  // namespace jobsentry
