// A cgroup's cgroup.procs (supervisor/job_cgroup.h parse_pid_list, as
// cgroup_pids reads it).
#include "fuzz_common.h"
#include "slurm/job_cgroup.h"

FUZZ_TEXT_TARGET(text) {
    for (size_t max : {size_t(3), size_t(1) << 16}) {
        const std::vector<pid_t> pids = jobsentry::parse_pid_list(text, max);
        FUZZ_CHECK(pids.size() <= max);
        for (pid_t pid : pids) FUZZ_CHECK(pid > 0 && pid < (1 << 22));
    }
}
