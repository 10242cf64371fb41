#include "slurm/plugin/rma_option.h"

namespace jobsentry {

RmaOptionParse parse_rma_check(const char* value) {
    RmaOptionParse out;
    const std::string text = value && std::string(value) != "(null)" ? value : "";  // srun passes "(null)"
    if (text.empty()) out.mode = RmaMode::protect;  // the default mode has no name of its own
    else if (text == "all") out.mode = RmaMode::protect_all;
    else if (text == "precise") out.mode = RmaMode::precise;
    else if (text == "off") out.mode = RmaMode::off;
    else out.error = "--rma-check=" + text + ": accepted values are: no value (page protection, no recompiling; hot call "
                     "sites sampled), all (the same, every operation watched), precise (programs built with "
                     "jobsentry-mpicc) or off";
    return out;
}

std::string rma_trace_dir(const SitePolicy& policy, const std::string& cwd, unsigned job_id) {
    const std::string& dir = policy.report_dir.empty() ? cwd : policy.report_dir;
    return dir + (dir.size() > 1 && dir.back() == '/' ? "" : "/") + "jobsentry-rma-" + std::to_string(job_id);
}

std::vector<std::pair<std::string, std::string>> rma_task_env(const SitePolicy& policy, RmaMode mode,
                                                              const std::string& trace_dir,
                                                              const std::string& old_preload) {
    std::string preload = policy.rma_lib;
    if (!old_preload.empty() && old_preload.find(policy.rma_lib) == std::string::npos) preload += ":" + old_preload;
    else if (!old_preload.empty()) preload = old_preload;  // already there (a step inside the batch step)
    return {{"LD_PRELOAD", preload},
            {"JOBSENTRY_RMA_TRACE_DIR", trace_dir},
            {"JOBSENTRY_RMA_MODE", mode == RmaMode::precise ? "precise" : "protect"},
            {"JOBSENTRY_RMA_SAMPLING", mode == RmaMode::protect_all ? "off" : "on"}};
}

std::vector<std::string> rma_job_argv(const SitePolicy& policy, unsigned job_id) {
    std::vector<std::string> argv{policy.supervisor, "rma-job", "--job-id", std::to_string(job_id)};
    if (!policy.report_dir.empty()) {
        argv.push_back("--report-dir");
        argv.push_back(policy.report_dir);
    }
    return argv;
}

std::string rma_option_usage() {
    return "Check MPI one-sided (RMA) memory consistency (jobsentry): traces of every rank, analysed at job end; "
           "=all to watch every operation's buffers (default: hot call sites sampled), =precise for programs built "
           "with jobsentry-mpicc";
}

}  // namespace jobsentry
