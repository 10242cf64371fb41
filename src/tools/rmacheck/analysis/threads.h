// The threads of a rank. Events of one rank are ordered per thread when the rank
// recorded OpenMP synchronisation through OMPT and every thread that made MPI
// calls or recorded loads/stores took part in it (ompt_ordered); otherwise they
// are taken as one sequence in the order they were recorded, and when they came
// from several threads a race between two threads of the rank may be missed:
// the notes say which. Pure: made from what the trace reader keeps.
#pragma once

#include <string>
#include <vector>

#include "tools/rmacheck/analysis/trace_reader.h"

namespace rmacheck {

// The rank's threads are ordered by OpenMP synchronisation: it has OMPT events, and every thread
// with MPI calls or loads/stores has some (a thread outside OpenMP, e.g. a raw pthread, could be
// ordered by something unrecorded: the whole rank then stays one sequence).
bool ompt_ordered(const RankTrace& t);

// One note per rank whose MPI calls or loads/stores came from more than one thread: ordered by
// OpenMP synchronisation (what is covered), or not checked among threads.
std::vector<std::string> thread_notes(const std::vector<RankTrace>& traces);

}  // namespace rmacheck
