// The communication patterns of LogGOPSim's schedgen (src/Schedgen/schedgen.cpp
// of spcl/LogGOPSim), built as that tool writes them with its defaults (root
// 0, tag 0, no cpu placement): the same ops in the same order in each rank,
// the same requires, including schedgen's repeated ones. They are not the
// project's collectives (collectives.h): schedgen's binomial broadcast sends
// to the smallest subtree first, its dissemination posts every receive at the
// start, its reduce sends to v minus v's highest bit. They let the tests
// compare the two models with values measured with LogGOPSim itself.
#pragma once

#include <vector>

#include "tools/simulator/collectives.h"

namespace jobsentry::sim {

// schedgen:NAME for NAME in binomialtreebcast, binomialtreereduce,
// binarytreebcast, dissemination, linbarrier (1-byte messages whatever
// `bytes` is), gather, scatter, linear_alltoall; make_collective() builds them.
const std::vector<CollectiveGenerator>& schedgen_patterns();

}  // namespace jobsentry::sim
