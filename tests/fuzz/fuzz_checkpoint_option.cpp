// --checkpoint values (spank/checkpoint_option.h, as plugin.cpp calls it):
// an accepted request names a signal and a positive cost or none.
#include "slurm/plugin/checkpoint_option.h"
#include "fuzz_policy.h"

using namespace jobsentry;

FUZZ_TEXT_TARGET(text) {
    const fuzz::PolicyAndValue in = fuzz::policy_and_value(text);
    const CheckpointOptionParse p = parse_checkpoint_option(in.value.c_str(), in.policy);
    if (!p.error.empty()) return;
    FUZZ_CHECK(p.request.cost_s == -1 || p.request.cost_s > 0);
    checkpoint_supervisor_args(in.policy, p.request, true);
}
