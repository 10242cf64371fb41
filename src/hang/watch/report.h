// The hang report: what was watched, the verdict, the root-cause ranks, every
// rank's stack and the stacks merged into a tree. Written as JSON (for tools)
// and as text (for people), both created without following symlinks.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/safe_file.h"
#include "hang/sampler/cpu_cost.h"
#include "hang/sampler/frame.h"
#include "hang/model/slow_verdict.h"
#include "hang/model/stack_tree.h"

namespace jobsentry {

struct RankReport {
    int rank = -1;
    pid_t pid = 0;
    std::string node;       // multi-node jobs: the node, when not the supervisor's own
    std::string activity;   // in_mpi, computing, idle_outside, stopped, outside_mpi, unsampled
    char state = '?';
    double cpu_seconds = 0;
    std::string sample_error;
    std::vector<Frame> frames;  // innermost first
    int stack_like_rank = -1;   // no frames of its own: its stack is this rank's (the same call chain)
};

struct Report {
    std::string verdict = "no_hang";  // "hang" or "no_hang"
    std::string reason;
    std::vector<int> suspect_ranks;
    double detected_at = 0;     // Unix seconds; 0 when there was no hang
    double suspicious_since = 0;  // first sample of the run of suspicious samples that led to the hang
    double progress_last_seen = 0;  // last sample in which a monitored rank's call chain moved; 0: never
    double started_at = 0;
    double finished_at = 0;
    uint64_t samples = 0;       // sampling rounds
    double interval_ms = 0;     // I at the end (after doublings)
    double alpha = 0;
    int monitored_ranks = 0;
    int total_ranks = 0;
    std::string monitoring_problem;  // why monitoring stopped early, if it did
    std::vector<std::string> command;  // `jobsentry watch`
    uint32_t slurm_job_id = 0;         // `jobsentry supervise`; 0 otherwise
    std::string action_taken;          // what was done about the hang
    std::optional<int> command_status;
    nlohmann::json evidence = nlohmann::json::object();
    SlowVerdict slow;                  // the slow verdict beside the hang verdict (report_slow.h)
    nlohmann::json nodes;              // multi-node jobs: each node agent's state (agent_hub.h)
    // The supervisor's own CPU time (user + system) when the 20th sample was
    // taken, to tell its steady cost from its start-up (symbol tables).
    double warm_cpu_s = 0;
    double warm_at = 0;
    double warm_job_cpu_s = 0;  // the job's, then
    // The supervisor's CPU budget on a busy node (hang/model/sampling_budget.h).
    double budget_percent = 0;  // 0: off
    double budget_stretch_max = 1, budget_stretch_at_end = 1, budget_seconds_slowed = 0;
    bool budget_full_node = false;  // at its last judgement
    // What watching cost (cpu_cost.h): the supervisor's CPU time
    // (CLOCK_PROCESS_CPUTIME_ID: every thread, start-up included), the
    // ranks' utime + stime as last read, and the supervisor's steps.
    double supervisor_cpu_s = 0;
    double job_cpu_s = 0;
    CpuCost cpu_cost;
    std::vector<RankReport> ranks;
    // The stack tree drawn as a graph (hang reports; see dot_render.h): the
    // files written, empty when not written, and why one was not.
    std::string stack_tree_dot, stack_tree_svg, stack_tree_graph_note;
};

// Name of a frame for people: demangled function, or ?? with the module.
std::string frame_label(const Frame& frame);

// Every sampled rank's stack (function names as frame_label gives them) merged.
StackTree stack_tree_of(const Report& report);

nlohmann::json report_json(const Report& report);
std::string report_text(const Report& report);

// path.json and path's .txt sibling. Returns an error text, empty on success.
std::string write_report(const Report& report, const std::string& json_path);
std::string text_path_for(const std::string& json_path);
// json_path with its ".json" (if any) replaced by suffix: ".txt", ".dot", ".svg".
std::string sibling_path(const std::string& json_path, const std::string& suffix);

}  // namespace jobsentry
