// `jobsentry noise-job`: the OS-noise probe of a Slurm job on this node, run
// by jobsent.so at job start (as root, before the step's tasks). Measures the
// job's PUs, writes the full result as the job's user into the report
// directory, and adds a one-line summary clause to the job's AdminComment.
// Every failure is logged and exits 1; the job is never touched otherwise.
#pragma once

#include <string>
#include <vector>

namespace jobsentry {

int run_noise_job(const std::vector<std::string>& args);

}  // namespace jobsentry
