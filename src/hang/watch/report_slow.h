// The slow verdict in the report (report.h): its JSON object and its lines
// of the text report, with the evidence of each rank or node named.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "hang/model/slow_verdict.h"

namespace jobsentry {

// {"status": "slow", "summary": ..., "since": unix s, "job_factor", "p_value",
//  "alpha", "tests", "rounds", "baseline_rounds", "ranks": [...], "nodes": [...],
//  "units": [{"node", "ranks", "is_node", "compute_factor", "baseline_share",
//  "recent_share", "window", "p_value", "since"}]}; without the slow fields
// when not slow.
nlohmann::json slow_json(const SlowVerdict& v);
// "  slow:         slow: rank 2 (node n1) ~1.31x\n" and, when slow, one
// evidence line per unit.
std::string slow_text(const SlowVerdict& v);
// A verdict's time (its `since`, Unix seconds) as the report and the log show it: ISO 8601 UTC, "-" for none.
std::string slow_time(double unix_seconds);

}  // namespace jobsentry
