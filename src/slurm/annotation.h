// The one-line verdicts the supervisor puts in a job's AdminComment, so that
// `sacct -o JobID,State,AdminComment` shows why a job ended. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hang/watch/report.h"

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

// "jobsentry: no hang; 123 samples; supervisor CPU 0.053 % of the job" (the
// share when the job's CPU time is known) and, when monitoring stopped, why. A
// hang verdict of an earlier run of the job (before a requeue) is kept after it.
std::string end_annotation(const Report& report, const std::string& previous_comment = "");

// The slow verdict's clause and its key: "jobsentry slow: node n3 (ranks 12-15)
// ~1.25x since 2026-11-28T05:02:11Z, p 3.1e-09", at most kMaxSlowClause
// characters (a job with many slow ranks says "..."); kept by the hang and
// end verdicts as another part's clause.
constexpr const char* kSlowClauseKey = "jobsentry slow:";
constexpr size_t kMaxSlowClause = 240;
std::string slow_clause(const SlowVerdict& verdict);

// slow_action=drain: the nodes a slow verdict names (its node units, and the
// node of each slow rank; a rank whose node is not known is on the job's only
// node when the job has one), none unless the verdict is slow; and the DRAIN
// reason: "jobsentry job 42: slow: rank 2 (node n1) ~1.96x since ..., p 2e-07".
std::vector<std::string> nodes_to_drain(const SlowVerdict& verdict, const std::vector<std::string>& job_nodes);
std::string drain_reason(uint32_t job_id, const SlowVerdict& verdict);

// slow_action=drain at job start: a node the noise probe judged NOISY against
// the site's baseline is drained before the job's work starts, with the reason
// "jobsentry job 42: NOISY at job start: worst PU 1 31.2%, ...; NOISY 31x the
// site baseline 1%" (at most kMaxSlowClause characters). Which Slurm node this
// is: slurmd's name for it when it is one of the job's nodes, else the host
// name when it is, else the job's only node; "" when none fits (not drained).
std::string noisy_drain_reason(uint32_t job_id, const std::string& noise_clause);
std::string this_slurm_node(const std::vector<std::string>& job_nodes, const std::string& slurmd_nodename,
                            const std::string& hostname);

// 400ms, 4.0s, 12m05s, 1h02m: periods as the annotation shows them.
std::string format_period(double seconds);

// The checkpoint clause: "checkpoint every 1h02m by SIGUSR1 (Young/Daly,
// C=90s, job MTBF 5h; 3 sent)" when the supervisor signals the job
// (signal_name non-empty), else "Young/Daly period 1h02m (C=90s guess, job MTBF 5h)".
std::string checkpoint_note(double period_s, double cost_s, double job_mtbf_s, const std::string& signal_name,
                            int signals_sent);

// comment with "; note" added to its first clause (before the first " -- ",
// e.g. " -- earlier run: "), still one line of at most kMaxAnnotation characters.
std::string with_note(const std::string& comment, const std::string& note);

}  // namespace jobsentry
