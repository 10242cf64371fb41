// `jobsentry rma-job`: at the end of a Slurm job run with --rma-check,
// analyses the ranks' traces (as the job's user: they are the user's files),
// writes the findings next to them (jobsentry-rma-<id>.json and .txt, the
// user's files) and adds "jobsentry rma: N races ..." to the AdminComment.
// Started by jobsentry.so from the end of the batch or extern step, as root.
#pragma once

#include <string>
#include <vector>

namespace jobsentry {

int run_rma_job(const std::vector<std::string>& args);

}  // namespace jobsentry
