// The watcher: finds a job's MPI ranks, samples them at random moments,
// feeds the ParaStack model, verifies alarms with fresh stacks of every rank,
// and hands a verified hang to the WatchedJob, which reports and acts.
//
// One thread does everything: ptrace ties tracees to the thread that seized
// them, and signals (SIGCHLD, SIGTERM, ...) are blocked and taken with
// sigtimedwait between samples, so no handler ever runs in the middle of a
// sample and no tracee can be left stopped by an interrupted sample.
#pragma once

#include "hang/watch/detection_settings.h"
#include "hang/watch/watched_job.h"

namespace jobsentry {

// Returns the exit status that job.finish() chose.
int run_watcher(const DetectionSettings& settings, WatchedJob& job);

}  // namespace jobsentry
