// The one-line verdicts the supervisor puts in a job's AdminComment, so that
// `sacct -o JobID,State,AdminComment` shows why a job ended. Pure.
#pragma once

#include <string>

#include "report.h"

namespace jobsentry {

constexpr size_t kMaxAnnotation = 1000;  // far below Slurm's limits; sacct columns stay readable

// The AdminComment is one line of clauses joined by " -- ". The first is the
// hang verdict ("jobsentry: ..."); other parts of jobsentry add clauses of
// their own whose text starts "jobsentry <part>" (e.g. "jobsentry noise node1:
// ..."). Every writer replaces only its own clause and keeps the others'.
constexpr const char* kClauseSeparator = " -- ";

// comment with the clause that starts with key replaced by clause, or clause
// appended; a comment not written by jobsentry (a site's note) is replaced.
std::string with_clause(const std::string& comment, const std::string& key, const std::string& clause);

// " -- jobsentry <part>..." clauses of comment (other parts' clauses), or "".
std::string part_clauses(const std::string& comment);

// "jobsentry: hang at 2026-11-22T10:41:03Z after 4.1s; suspect ranks 3; action cancel; report /path"
// where "after" is the time since a monitored rank was last seen to progress.
// Other parts' clauses of previous_comment are kept.
std::string hang_annotation(const Report& report, const std::string& action, const std::string& report_path,
                            const std::string& previous_comment = "");

// "jobsentry: no hang; 123 samples" and, when monitoring stopped, why. A
// hang verdict of an earlier run of the job (before a requeue) is kept after it.
std::string end_annotation(const Report& report, const std::string& previous_comment = "");

}  // namespace jobsentry
