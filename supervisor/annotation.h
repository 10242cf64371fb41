// The one-line verdicts the supervisor puts in a job's AdminComment, so that
// `sacct -o JobID,State,AdminComment` shows why a job ended. Pure.
#pragma once

#include <string>

#include "report.h"

namespace jobsentry {

constexpr size_t kMaxAnnotation = 1000;  // far below Slurm's limits; sacct columns stay readable

// "jobsentry: hang at 2026-11-22T10:41:03Z after 4.1s; suspect ranks 3; action cancel; report /path"
// where "after" is the time since a monitored rank was last seen to progress.
std::string hang_annotation(const Report& report, const std::string& action, const std::string& report_path);

// "jobsentry: no hang; 123 samples" and, when monitoring stopped, why. A
// hang verdict of an earlier run of the job (before a requeue) is kept after it.
std::string end_annotation(const Report& report, const std::string& previous_comment = "");

}  // namespace jobsentry
