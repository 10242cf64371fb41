// `jobsentry trace [--trace-dir D] [--mpi auto|openmpi|mpich] -- mpirun ... ./app`
// runs an MPI program with the tracer preloaded (one rank-N.jstrace per rank),
// and `jobsentry trace-to-goal D [-o FILE]` turns the traces into a GOAL
// schedule for `jobsentry simulate --goal`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jobsentry {

struct TraceOptions {
    std::string trace_dir = "jobsentry-traces";
    std::string mpi = "auto";
    std::vector<std::string> command;
};

struct TraceToGoalOptions {
    std::string trace_dir;
    std::string output;  // "" or "-": standard output
    std::string allreduce = "recursive-doubling";  // or reduce-bcast
    std::uint32_t scale = 0;                        // 0: the traced number of ranks
    std::string scale_text;                         // --scale as given
    std::string scale_rule = "offsets";             // or replicate (extrapolate.h)
};

template <class Options>
struct CommandParse {
    Options options;
    bool help = false;
    std::string error;  // non-empty: what was wrong and what is accepted
};

CommandParse<TraceOptions> parse_trace_options(const std::vector<std::string>& args);
CommandParse<TraceToGoalOptions> parse_trace_to_goal_options(const std::vector<std::string>& args);

int run_trace(const std::vector<std::string>& args);
int run_trace_to_goal(const std::vector<std::string>& args);

// trace-to-goal's exit status when the GOAL was written but some ranks were left out.
constexpr int kRanksLeftOut = 3;

}  // namespace jobsentry
