// What the analysis could not check about the threads of a rank. Events of one
// rank are taken as one sequence in the order they were recorded; when they came
// from several threads, nothing tells how the threads' events were ordered, so a
// race between two threads of a rank may be missed. Pure: the note is made from
// the per-thread counts the trace reader keeps.
#pragma once

#include <string>
#include <vector>

#include "trace_reader.h"

namespace rmacheck {

// One note per rank whose MPI calls or loads/stores came from more than one thread.
std::vector<std::string> thread_notes(const std::vector<RankTrace>& traces);

}  // namespace rmacheck
