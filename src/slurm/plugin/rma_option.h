// The --rma-check option: which mode the user asked for, the environment that
// puts the checker's preload module into the job's tasks, and the command
// that analyses the traces at job end. Pure (tests/unit/test_policy.cpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "slurm/plugin/policy.h"

namespace jobsentry {

enum class RmaMode { off, protect, protect_all, precise };  // protect_all: mode 1 without sampling

struct RmaOptionParse {
    RmaMode mode = RmaMode::off;
    std::string error;  // non-empty: what was wrong, what is accepted
};

// nullptr/"" (mode 1, protect), "all" (mode 1 watching every operation), "precise" (mode 2) or "off".
RmaOptionParse parse_rma_check(const char* value);

// Where a job's traces go: DIR/jobsentry-rma-<id>, DIR the site's report_dir
// or else the task's working directory.
std::string rma_trace_dir(const SitePolicy& policy, const std::string& cwd, unsigned job_id);

// The variables for a task: LD_PRELOAD (the module before whatever the job
// had), JOBSENTRY_RMA_TRACE_DIR, JOBSENTRY_RMA_MODE, JOBSENTRY_RMA_SAMPLING.
std::vector<std::pair<std::string, std::string>> rma_task_env(const SitePolicy& policy, RmaMode mode,
                                                              const std::string& trace_dir,
                                                              const std::string& old_preload);

// argv of `jobsentry rma-job`, run at job end.
std::vector<std::string> rma_job_argv(const SitePolicy& policy, unsigned job_id);

std::string rma_option_usage();

}  // namespace jobsentry
