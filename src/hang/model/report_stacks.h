#pragma once
// A hang's report shows every rank's stack, but its verdict needs only digests (multi-node.md): at
// 256 node agents, full stacks of every rank in the last verification round cost the leader 1-2 s of
// CPU and 150 MiB. After the verdict the leader fetches the frames of the suspects and of one rank per
// call chain no sample in hand shows yet; every other rank's stack is its twin's, a rank of the same
// call chain (the merged stack tree of STAT: ranks of a hung job fall into a few such classes).
#include <cstddef>
#include <map>
#include <vector>

#include "hang/sampler/frame.h"

namespace jobsentry {

// Fetched at most for a report; the ranks beyond keep their digests only.
constexpr size_t kMaxReportFetches = 256;

// The ranks, among those whose latest sample is a digest only, whose frames the report needs: the
// suspects first, then the lowest rank of each call chain that no full sample shows; at most limit.
std::vector<int> report_stack_fetches(const std::map<int, StackSample>& latest, const std::vector<int>& suspects,
                                      size_t limit = kMaxReportFetches);

// For every rank whose latest sample is a digest only: the rank with a full sample of its call
// chain (its twin), if any. Ranks of an agent that sends no chain digest have none.
std::map<int, int> report_stack_twins(const std::map<int, StackSample>& latest);

}  // namespace jobsentry
