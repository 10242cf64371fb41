// A rank's sample as one word of the supervisor's log (--verbose, log_samples=yes): what the
// verification of an alarm reads from a sample (state, call chain digest, CPU ticks, scheduler
// times, the MPI call), so that bench/model_replay can replay verification on recorded jobs as the
// watcher runs it (verify_rank, progress.h). Pure, no frames: a record reads back as a compact
// sample (digest_only).
//   S,p=3fa2c1d0,c=1234,m=1200,u=1100,t=512.031,r=980123456,w=1234567,s=42,i=1,f=PMPI_Allreduce
// r and w (the main thread's run and run-queue nanoseconds) only where schedstat is known; s (µs
// from the sample's start until the rank stopped) only where known (a node agent's sample carries the
// agent's measure, to 20 µs up to 5 ms: wire.h); f only
// inside MPI. The call chain digest keeps 32 bits of progress_signature: a false "no change" needs a
// collision, 1 in 4e9 per comparison.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "hang/sampler/frame.h"

namespace jobsentry {

std::string sample_record(const StackSample& sample);
// The sample a record describes (status ok, digest_only), or nullopt for text that is no record.
std::optional<StackSample> parse_sample_record(std::string_view text);

}  // namespace jobsentry
