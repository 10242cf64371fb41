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
//  "recent_share", "window", "p_value", "since"}], "peers_cpu_before",
//  "peers_cpu_now" (when the scheduler's times are known)}; without the slow
// fields when not slow, with "held_back" when a look held a unit back.
nlohmann::json slow_json(const SlowVerdict& v);
// "  slow:         slow: rank 2 (node n1) ~1.31x\n" and, when slow, one
// evidence line per unit.
std::string slow_text(const SlowVerdict& v);
// One unit's evidence: "computes 1.62x slower than its peers since T; waited for in 31 % of the last
// 64 rounds against 2 % at baseline (p = 3.1e-09)", or for a unit starved of CPU "gets 1.90x less CPU
// than its peers since T: ran 31 % of the time it could run, its peers 58 %; starved in 80 % of the
// last 64 rounds against 9 % at baseline (p = ...)". The report's line and the log's.
std::string slow_unit_evidence(const SlowUnit& u);
// A verdict's time (its `since`, Unix seconds) as the report and the log show it: ISO 8601 UTC, "-" for none.
std::string slow_time(double unix_seconds);

}  // namespace jobsentry
