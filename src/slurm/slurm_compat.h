// The one place where libslurm releases differ for us (22.05 to 25.11), keyed
// on SLURM_VERSION_NUMBER; see docs/porting-debian13.md for the evidence.
// Include after <slurm/slurm.h>.
#pragma once

#include <cerrno>
#include <cstdint>

namespace jobsentry::slurm_compat {

// slurm_get_errno() was only `return errno;` and is gone from 24.11.
inline int last_errno() { return errno; }

// Up to 23.02 hostlist_t is itself a pointer; from 23.11 the API takes
// and returns hostlist_t *.
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0)
using Hostlist = hostlist_t*;
#else
using Hostlist = hostlist_t;
#endif

// 25.11 moved the job id of an update request into step_id.
inline void set_job_id(job_desc_msg_t* desc, uint32_t job_id) {
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 11, 0)
    desc->step_id.job_id = job_id;
#else
    desc->job_id = job_id;
#endif
}

}  // namespace jobsentry::slurm_compat
