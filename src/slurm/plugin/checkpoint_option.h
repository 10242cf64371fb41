// The --checkpoint option (`--checkpoint=signal:USR1[,cost=90s]`): the
// supervisor sends the signal to the batch shell at the Young/Daly period,
// with λ from the site's per-node MTBF (plugstack.conf mtbf=) and the job's
// node count. Also what the plugin puts in every job's environment so that
// jobsentry_ckpt.h applications get λ. Pure, no Slurm calls
// (tests/unit/test_policy.cpp). See docs/slurm.md.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "slurm/plugin/policy.h"

namespace jobsentry {

struct CheckpointRequest {
    int signal = 0;           // 0: no checkpoint signal
    std::string signal_name;  // "USR1"
    double cost_s = -1;       // the user's C guess; -1: the site's ckpt_cost
};

struct CheckpointOptionParse {
    CheckpointRequest request;
    std::string error;  // non-empty: what was wrong, what is accepted
};

// "off", or "signal:SIG" and optionally ",cost=DURATION". Refused when the
// site sets no mtbf= (there is no period to signal at).
CheckpointOptionParse parse_checkpoint_option(const char* value, const SitePolicy& policy);

// The signals --checkpoint accepts, "USR1, USR2, ..." for messages.
std::string checkpoint_signal_names();

// Extra arguments of `jobsentry supervise`: the MTBF and cost guess when the
// site sets mtbf=, the signal when the batch step asked for it, and
// --no-hang-detect when the supervisor runs only for the signal.
std::vector<std::string> checkpoint_supervisor_args(const SitePolicy& policy, const CheckpointRequest& request,
                                                    bool hang_detect);

// Variables for the job's environment (jobsentry_ckpt.h reads them):
// JOBSENTRY_MTBF when the site sets mtbf=, JOBSENTRY_CKPT_COST when it sets
// ckpt_cost=. Empty otherwise.
std::vector<std::pair<std::string, std::string>> checkpoint_environment(const SitePolicy& policy);

std::string checkpoint_option_usage(const SitePolicy& policy);

}  // namespace jobsentry
