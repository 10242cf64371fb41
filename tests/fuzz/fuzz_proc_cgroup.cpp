// /proc/PID/cgroup (supervisor/job_cgroup.h): the job cgroups a process is
// in (leave_job_cgroups) and the node named there (slurm_job.cpp).
#include "fuzz_common.h"
#include "slurm/job_cgroup.h"

FUZZ_TEXT_TARGET(text) {
    for (const auto& [hierarchy, path] : jobsentry::job_cgroups_of(text))
        FUZZ_CHECK(path.find("/job_") != std::string::npos && hierarchy.find('\n') == std::string::npos);
    const std::string node = jobsentry::node_of_cgroup_text(text);
    FUZZ_CHECK(node.find('/') == std::string::npos && node.find('\n') == std::string::npos);
}
