// Turns the ranks' traces into a GOAL schedule (tools/simulator/schedule.h), the
// schedule `jobsentry trace-to-goal` writes: per rank in program order, a calc
// for the time between two MPI calls (ns, the simulator's unit), a send or
// recv per message with its size and tag, each requiring the op before it;
// Isend/Irecv start in order but only the Wait/Test that completed them makes
// the next op require their end (the op after an Isend irequires it); each
// collective expanded into the rounds of collective_rounds.h. Ranks whose trace
// could not be read are left out: messages to and from them are dropped,
// collectives run among the others, and `notes` says so. Pure.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tools/tracer/collective_rounds.h"
#include "tools/simulator/schedule.h"
#include "tools/tracer/trace_reader.h"

namespace jobtrace {

// Tags of the messages a collective is expanded into: base + the index of its
// communicator's member list, so they never match the program's own messages.
constexpr std::int32_t kCollectiveTagBase = 1 << 30;

struct Conversion {
    jobsentry::sim::Schedule schedule;
    std::vector<std::string> notes;  // what was left out or approximated, for the GOAL's comment
    // The measured time to compare a prediction with: the longest rank's span from its first
    // traced call's start to its last call's end, ns.
    std::uint64_t traced_ns = 0;
};

// world_size: the job's MPI_COMM_WORLD size; left_out: unreadable ranks and why.
Conversion goal_from_traces(const std::vector<RankTrace>& traces, std::uint32_t world_size,
                            const std::map<std::uint32_t, std::string>& left_out,
                            Allreduce allreduce = Allreduce::recursive_doubling);

// Conversion::traced_ns of these traces: the longest rank's span, first call's start to last call's end.
std::uint64_t traced_region_ns(const std::vector<RankTrace>& traces);

// The same for ranks made on demand (trace-to-goal --scale): rank_trace(r) is called once for each
// r in 0..world_size-1, all present; records: their total, to reserve the schedule. traced_ns is 0.
Conversion goal_from_rank_source(std::uint32_t world_size, std::uint64_t records,
                                 const std::function<RankTrace(std::uint32_t)>& rank_trace,
                                 Allreduce allreduce = Allreduce::recursive_doubling);

}  // namespace jobtrace
