#include "slurm/annotation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iomanip>
#include <sstream>
#include <vector>

namespace jobsentry {
namespace {

std::string utc(double unix_seconds) {
    time_t t = static_cast<time_t>(unix_seconds);
    char buf[32];
    std::tm tm{};
    gmtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// Semicolons separate the fields of the line; newlines and '|' would break sacct's output.
std::string one_line(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
        else if (c == '|') c = '/';  // sacct -P separates fields with '|'
    if (text.size() > kMaxAnnotation) text = text.substr(0, kMaxAnnotation - 3) + "...";
    return text;
}

std::vector<std::string> split_clauses(const std::string& comment) {
    std::vector<std::string> out;
    const std::string sep = kClauseSeparator;
    size_t start = 0;
    for (size_t at; (at = comment.find(sep, start)) != std::string::npos; start = at + sep.size())
        out.push_back(comment.substr(start, at - start));
    out.push_back(comment.substr(start));
    return out;
}

bool ours(const std::string& clause) {
    return clause.rfind("jobsentry", 0) == 0 || clause.rfind("earlier run: jobsentry", 0) == 0;
}
bool part_clause(const std::string& clause) { return clause.rfind("jobsentry ", 0) == 0; }

}  // namespace

std::string with_clause(const std::string& comment, const std::string& key, const std::string& clause) {
    std::string out;
    bool replaced = false;
    for (const std::string& c : split_clauses(comment)) {
        if (!ours(c)) continue;
        const bool mine = c.rfind(key, 0) == 0;
        if (mine && replaced) continue;
        out += (out.empty() ? "" : kClauseSeparator) + (mine ? clause : c);
        replaced = replaced || mine;
    }
    if (!replaced) out += (out.empty() ? "" : kClauseSeparator) + clause;
    return one_line(out);
}

std::string part_clauses(const std::string& comment) {
    std::string out;
    const std::vector<std::string> clauses = split_clauses(comment);
    if (clauses.empty() || !ours(clauses.front())) return out;  // not a comment of ours
    for (const std::string& c : clauses)
        if (part_clause(c)) out += kClauseSeparator + c;
    return out;
}

std::string hang_annotation(const Report& r, const std::string& action, const std::string& report_path,
                            const std::string& previous) {
    std::ostringstream out;
    // "after": how long no monitored rank was seen to progress before the
    // verdict; the run of suspicious samples, when no progress was ever seen.
    // (That run often starts before the hang: busy ranks wait in MPI a lot.)
    const double since = r.progress_last_seen > 0 ? r.progress_last_seen : r.suspicious_since;
    const double after = since > 0 && r.detected_at >= since ? r.detected_at - since : 0;
    out << "jobsentry: hang at " << utc(r.detected_at) << " after " << std::fixed << std::setprecision(1) << after
        << "s; suspect ranks ";
    const size_t shown = 16;
    for (size_t i = 0; i < r.suspect_ranks.size() && i < shown; ++i) out << (i ? "," : "") << r.suspect_ranks[i];
    if (r.suspect_ranks.size() > shown) out << ",... (" << r.suspect_ranks.size() << " in all)";
    if (r.suspect_ranks.empty()) out << "none named";
    out << "; action " << action;
    out << "; report " << (report_path.empty() ? "not written" : report_path);
    return one_line(out.str() + part_clauses(previous));
}

std::string end_annotation(const Report& r, const std::string& previous) {
    std::string text = "jobsentry: no hang; " + std::to_string(r.samples) + " samples";
    if (r.job_cpu_s > 0) {  // a number, never more: the comment stays bounded
        char share[64];
        std::snprintf(share, sizeof share, "; supervisor CPU %.3f %% of the job",
                      cpu_share_percent(r.supervisor_cpu_s, r.job_cpu_s));
        text += share;
    }
    if (!r.monitoring_problem.empty()) text += "; monitoring stopped: " + r.monitoring_problem;
    const std::string hang = "jobsentry: hang at ";
    if (previous.rfind(hang, 0) == 0) text += " -- earlier run: " + split_clauses(previous).front();
    text = one_line(text + part_clauses(previous));
    // A slow verdict's clause as it stands at the end: the same units, its estimate over every round
    // since the change (the one set at the naming rests on its first window's).
    if (r.slow.status == SlowStatus::slow) text = with_clause(text, kSlowClauseKey, slow_clause(r.slow));
    return text;
}

std::string slow_clause(const SlowVerdict& v) {
    // slow_summary's "slow: ..." without its word, the factor kept at the end of the units.
    std::string what = slow_summary(v);
    if (what.rfind("slow: ", 0) == 0) what = what.substr(6);
    char tail[96];
    std::snprintf(tail, sizeof tail, " since %s, p %.2g", utc(v.since).c_str(), v.p_value);
    std::string text = std::string(kSlowClauseKey) + " " + what + tail;
    if (text.size() > kMaxSlowClause) text = text.substr(0, kMaxSlowClause - 3) + "...";
    return one_line(text);
}

std::vector<std::string> nodes_to_drain(const SlowVerdict& v, const std::vector<std::string>& job_nodes) {
    std::vector<std::string> nodes;
    if (v.status != SlowStatus::slow) return nodes;
    const auto add = [&](const std::string& n) {
        if (!n.empty() && std::find(nodes.begin(), nodes.end(), n) == nodes.end()) nodes.push_back(n);
    };
    for (const std::string& n : v.slow_nodes) add(n);
    for (const SlowUnit& u : v.units) add(!u.node.empty() ? u.node : job_nodes.size() == 1 ? job_nodes[0] : "");
    return nodes;
}

std::string drain_reason(uint32_t job_id, const SlowVerdict& v) {
    std::string clause = slow_clause(v);
    const std::string key = kSlowClauseKey;
    if (clause.rfind(key, 0) == 0) clause = "slow:" + clause.substr(key.size());
    return "jobsentry job " + std::to_string(job_id) + ": " + clause;
}

std::string noisy_drain_reason(uint32_t job_id, const std::string& noise_clause) {
    std::string text = "jobsentry job " + std::to_string(job_id) + ": NOISY at job start: " + noise_clause;
    if (text.size() > kMaxSlowClause) text = text.substr(0, kMaxSlowClause - 3) + "...";
    return one_line(text);
}

std::string this_slurm_node(const std::vector<std::string>& job_nodes, const std::string& slurmd_nodename,
                            const std::string& hostname) {
    const auto in_job = [&](const std::string& n) {
        return !n.empty() && std::find(job_nodes.begin(), job_nodes.end(), n) != job_nodes.end();
    };
    if (in_job(slurmd_nodename)) return slurmd_nodename;
    if (in_job(hostname)) return hostname;
    return job_nodes.size() == 1 ? job_nodes.front() : std::string();
}

std::string format_period(double seconds) {
    char buf[64];
    if (!(seconds >= 0) || seconds > 1e9) return "?";
    if (seconds < 1) std::snprintf(buf, sizeof buf, "%ldms", std::lround(seconds * 1000));
    else if (seconds < 60) std::snprintf(buf, sizeof buf, "%.1fs", seconds);
    else if (seconds < 3600) {
        long s = std::lround(seconds);
        std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
    } else {
        long m = std::lround(seconds / 60);
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", m / 60, m % 60);
    }
    return buf;
}

std::string checkpoint_note(double period_s, double cost_s, double job_mtbf_s, const std::string& signal_name,
                            int signals_sent) {
    if (signal_name.empty())
        return "Young/Daly period " + format_period(period_s) + " (C=" + format_period(cost_s) + " guess, job MTBF " +
               format_period(job_mtbf_s) + ")";
    return "checkpoint every " + format_period(period_s) + " by SIG" + signal_name + " (Young/Daly, C=" +
           format_period(cost_s) + ", job MTBF " + format_period(job_mtbf_s) + "; " + std::to_string(signals_sent) +
           " sent)";
}

std::string with_note(const std::string& comment, const std::string& note) {
    if (note.empty()) return comment;
    // The verdict's clause ends at the first " -- " (an earlier run's
    // verdict, or another part's clause follows).
    size_t at = comment.find(" -- ");
    if (at == std::string::npos) at = comment.size();
    return one_line(comment.substr(0, at) + "; " + note + comment.substr(at));
}

}  // namespace jobsentry
