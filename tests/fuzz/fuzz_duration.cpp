// Durations with a unit (spank/policy.h parse_duration_seconds and
// parse_duration_ms), shared by plugstack.conf, --hang-detect, --noise-probe,
// --checkpoint, `jobsentry ckpt` and JOBSENTRY_CKPT_COST.
#include <cmath>

#include "fuzz_common.h"
#include "base/duration.h"

FUZZ_TEXT_TARGET(text) {
    const double s = jobsentry::parse_duration_seconds(text);
    FUZZ_CHECK(s == -1 || (std::isfinite(s) && s >= 0));
    const long ms = jobsentry::parse_duration_ms(text);
    FUZZ_CHECK(ms == -1 || (ms >= 0 && ms <= 1000000000L));
    if (ms >= 0) FUZZ_CHECK(s >= 0);  // the two agree on what is a duration
}
