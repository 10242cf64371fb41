// The --iter-file of `jobsentry ckpt advise` (checkpoint/advise_options.h
// parse_iteration_times): positive, finite times, or an error.
#include <cmath>

#include "tools/checkpoint/advise_options.h"
#include "fuzz_common.h"

FUZZ_TEXT_TARGET(text) {
    std::string error;
    const std::vector<double> times = jobsentry::ckpt::parse_iteration_times(text, &error);
    FUZZ_CHECK(times.empty() || error.empty());
    for (double t : times) FUZZ_CHECK(std::isfinite(t) && t > 0);
}
