// --rma-check values (spank/rma_option.h parse_rma_check, as plugin.cpp calls it).
#include "fuzz_policy.h"
#include "slurm/plugin/rma_option.h"

using namespace jobsentry;

FUZZ_TEXT_TARGET(text) {
    const fuzz::PolicyAndValue in = fuzz::policy_and_value(text);
    const RmaOptionParse p = parse_rma_check(in.value.empty() ? nullptr : in.value.c_str());
    FUZZ_CHECK(p.error.empty() || p.mode == RmaMode::off);
    if (p.error.empty() && p.mode != RmaMode::off) rma_task_env(in.policy, p.mode, "/home/u/jobsentry-rma-7", "");
}
