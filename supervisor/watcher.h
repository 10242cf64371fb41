// `jobsentry watch`: runs a command, finds its MPI ranks, samples them at
// random moments, feeds the ParaStack model, verifies alarms with fresh
// stacks of every rank, and reports and acts on a verified hang.
//
// One thread does everything: ptrace ties tracees to the thread that seized
// them, and signals (SIGCHLD, SIGTERM, ...) are blocked and taken with
// sigtimedwait between samples, so no handler ever runs in the middle of a
// sample and no tracee can be left stopped by an interrupted sample.
#pragma once

#include "watch_options.h"

namespace jobsentry {

// Returns the process exit status (see watch_help()).
int run_watch(const WatchOptions& options);

}  // namespace jobsentry
