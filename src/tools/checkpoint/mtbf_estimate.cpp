#include "tools/checkpoint/mtbf_estimate.h"

#include <ctime>
#include <sstream>

#include <boost/math/distributions/chi_squared.hpp>

namespace jobsentry::ckpt {
bool parse_event_time(const std::string& text, double* out) {
    std::tm tm{};
    const char* end = strptime(text.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
    if (!end || *end != '\0') return false;
    *out = static_cast<double>(timegm(&tm));
    return true;
}

namespace {

std::vector<std::string> split(const std::string& line, char sep) {
    std::vector<std::string> out;
    std::stringstream in(line);
    std::string field;
    while (std::getline(in, field, sep)) out.push_back(field);
    if (!line.empty() && line.back() == sep) out.emplace_back();
    return out;
}

}  // namespace

std::vector<NodeEvent> parse_sacctmgr_events(const std::string& text, std::vector<std::string>* errors) {
    std::vector<NodeEvent> out;
    std::istringstream in(text);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        std::vector<std::string> f = split(line, '|');
        NodeEvent e;
        if (f.size() < 4 || f[0].empty() || !parse_event_time(f[1], &e.start)) {
            errors->push_back("line " + std::to_string(number) + " '" + line +
                              "': expected NodeName|Start|End|State|Reason with Start like 2026-11-20T10:41:03");
            continue;
        }
        e.node = f[0];
        e.state = f[3];
        e.reason = f.size() > 4 ? f[4] : "";
        out.push_back(e);
    }
    return out;
}

bool is_failure(const NodeEvent& e) {
    return e.state.find("DOWN") != std::string::npos || e.state.find("FAIL") != std::string::npos;
}

MtbfEstimate estimate_node_mtbf(const std::vector<NodeEvent>& events, double nodes, double window_start,
                                double window_end) {
    MtbfEstimate m;
    for (const NodeEvent& e : events)
        if (is_failure(e) && e.start >= window_start && e.start < window_end) ++m.failures;
    m.node_seconds = nodes * std::max(0.0, window_end - window_start);
    if (m.node_seconds <= 0) return m;
    if (m.failures > 0) m.node_mtbf_s = m.node_seconds / static_cast<double>(m.failures);
    boost::math::chi_squared_distribution<double> chi2(2.0 * static_cast<double>(m.failures) + 2);
    m.lower_bound_s = 2 * m.node_seconds / boost::math::quantile(chi2, 0.95);
    return m;
}

}  // namespace jobsentry::ckpt
