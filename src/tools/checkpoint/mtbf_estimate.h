// A per-node MTBF estimated from the cluster's own history of node failures,
// as Slurm records them: `sacctmgr -n -P list event event=node
// start=... format=NodeName,Start,End,State,Reason`. Pure: the caller runs
// sacctmgr (or reads a saved copy) and hands the text here. The exponential
// model's estimate is μ_ind = node-time observed / failures, with a one-sided
// 95 % lower bound 2T/χ²₀.₉₅(2r + 2) for a window that ends at a fixed time.
#pragma once

#include <string>
#include <vector>

namespace jobsentry::ckpt {

struct NodeEvent {
    std::string node;
    double start = 0;  // seconds since the epoch, the fields read as UTC
    std::string state;
    std::string reason;
};

// One event a line, fields separated by '|': NodeName|Start|End|State|Reason
// (Start as 2026-11-20T10:41:03). Lines that do not parse are named in
// *errors and left out.
std::vector<NodeEvent> parse_sacctmgr_events(const std::string& text, std::vector<std::string>* errors);

// A failure is an event whose state contains DOWN or FAIL (a drain for
// maintenance is not).
bool is_failure(const NodeEvent& e);

struct MtbfEstimate {
    long failures = 0;
    double node_seconds = 0;     // nodes × window
    double node_mtbf_s = 0;      // node_seconds / failures; 0 when there was none
    double lower_bound_s = 0;    // one-sided 95 %; with no failure the only figure there is
};

// 2026-11-20T10:41:03 (read as UTC) to seconds since the epoch; false when malformed.
bool parse_event_time(const std::string& text, double* out);

// Failures starting in [window_start, window_end) on a cluster of `nodes` nodes.
MtbfEstimate estimate_node_mtbf(const std::vector<NodeEvent>& events, double nodes, double window_start,
                                double window_end);

}  // namespace jobsentry::ckpt
