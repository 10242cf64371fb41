#include "annotation.h"

#include <ctime>
#include <iomanip>
#include <sstream>

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

}  // namespace

std::string hang_annotation(const Report& r, const std::string& action, const std::string& report_path) {
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
    return one_line(out.str());
}

std::string end_annotation(const Report& r, const std::string& previous) {
    std::string text = "jobsentry: no hang; " + std::to_string(r.samples) + " samples";
    if (!r.monitoring_problem.empty()) text += "; monitoring stopped: " + r.monitoring_problem;
    const std::string hang = "jobsentry: hang at ";
    if (previous.rfind(hang, 0) == 0) text += " -- earlier run: " + previous.substr(0, previous.find(" -- earlier run: "));
    return one_line(text);
}

}  // namespace jobsentry
