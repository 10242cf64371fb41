// `sacctmgr list event` output (checkpoint/mtbf_estimate.h), as `jobsentry
// ckpt mtbf` reads it, and the estimate made from what was parsed.
#include <cmath>

#include "fuzz_common.h"
#include "tools/checkpoint/mtbf_estimate.h"

using namespace jobsentry::ckpt;

FUZZ_TEXT_TARGET(text) {
    std::vector<std::string> errors;
    const std::vector<NodeEvent> events = parse_sacctmgr_events(text, &errors);
    for (const NodeEvent& e : events) FUZZ_CHECK(std::isfinite(e.start));
    const MtbfEstimate m = estimate_node_mtbf(events, 4, 0, 4e9);
    FUZZ_CHECK(m.failures >= 0 && m.failures <= static_cast<long>(events.size()));
    FUZZ_CHECK(std::isfinite(m.lower_bound_s) && m.lower_bound_s >= 0);
    double t = 0;
    if (parse_event_time(text, &t)) FUZZ_CHECK(std::isfinite(t));
}
