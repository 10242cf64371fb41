#include "hang/watch/report_slow.h"

#include <cstdio>
#include <ctime>

namespace jobsentry {

std::string slow_time(double unix_seconds) {
    char buf[32] = "-";
    const time_t t = static_cast<time_t>(unix_seconds);
    std::tm tm{};
    if (unix_seconds > 0 && gmtime_r(&t, &tm)) strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

nlohmann::json slow_json(const SlowVerdict& v) {
    nlohmann::json out = {{"status", to_string(v.status)},
                          {"summary", slow_summary(v)},
                          {"rounds", v.rounds},
                          {"baseline_rounds", v.baseline_rounds}};
    if (!v.held_back.empty()) out["held_back"] = v.held_back;
    if (v.status != SlowStatus::slow) return out;
    nlohmann::json units = nlohmann::json::array();
    for (const SlowUnit& u : v.units)
        units.push_back({{"node", u.node},
                         {"ranks", u.ranks},
                         {"is_node", u.is_node},
                         {"evidence", to_string(u.evidence)},
                         {"compute_factor", u.compute_factor},
                         {"baseline_share", u.baseline_share},
                         {"recent_share", u.recent_share},
                         {"window", u.window},
                         {"p_value", u.p_value},
                         {"since", u.since}});
    for (size_t i = 0; i < v.units.size(); ++i) {
        if (v.units[i].evidence == SlowEvidence::cpu_starved) {
            units[i]["cpu_share"] = v.units[i].cpu_share;
            units[i]["peers_cpu_share"] = v.units[i].peers_cpu_share;
        }
        if (v.units[i].evidence == SlowEvidence::slow_link) {
            units[i]["link_ms"] = v.units[i].link_ms;
            units[i]["baseline_link_ms"] = v.units[i].baseline_link_ms;
        }
    }
    out["ranks"] = v.slow_ranks;
    out["nodes"] = v.slow_nodes;
    out["units"] = units;
    out["since"] = v.since;
    out["job_factor"] = v.job_factor;
    // What the job factor comes from (slow_verdict.h): the ranks' compute rates, the starved rank's CPU
    // share, or the peers' waiting; and the compute rates with the computing samples they rest on.
    out["job_factor_from"] = v.job_factor_from;
    if (v.compute_rate_before > 0) {
        out["compute_rate_before"] = v.compute_rate_before;
        out["compute_rate_now"] = v.compute_rate_now;
        out["computing_samples_before"] = v.computing_samples_before;
    }
    if (v.output_rate_now > 0) {  // the job's bytes written a second, where they gave the job factor
        out["output_rate_before"] = v.output_rate_before;
        out["output_rate_now"] = v.output_rate_now;
    }
    if (v.peers_cpu_now > 0) {  // the evidence behind a waited-for estimate: did the peers' CPU change?
        out["peers_cpu_before"] = v.peers_cpu_before;
        out["peers_cpu_now"] = v.peers_cpu_now;
    }
    out["p_value"] = v.p_value;  // Bonferroni-adjusted: compare with alpha
    out["alpha"] = v.threshold * v.tests;
    out["tests"] = v.tests;
    return out;
}

std::string slow_text(const SlowVerdict& v) {
    std::string out = "  slow:         " + slow_summary(v) + "\n";
    if (v.status != SlowStatus::slow) return out;
    char line[320];
    std::snprintf(line, sizeof line,
                  "                the job runs ~%.2fx slower since %s; p = %.2g (Bonferroni over %d tests) <= alpha "
                  "%.2g; %d rounds, %d of them baseline\n",
                  v.job_factor, slow_time(v.since).c_str(), v.p_value, v.tests, v.threshold * v.tests, v.rounds,
                  v.baseline_rounds);
    out += line;
    if (v.compute_rate_before > 0) {
        std::snprintf(line, sizeof line,
                      "                %s the ranks' compute rates%s: %.3f CPU-s/s computing at baseline (%d computing "
                      "samples), %.3f since\n",
                      v.job_factor_from.find("compute_rates") != std::string::npos ? "from" : "not from",
                      v.job_factor_from == "on_cpu_compute_rates" ? " (samples on the CPU)" : "", v.compute_rate_before,
                      v.computing_samples_before, v.compute_rate_now);
        out += line;
    }
    if (v.output_rate_now > 0) {
        std::snprintf(line, sizeof line,
                      "                from the job's output rate: %.4g bytes written a second at baseline, %.4g since\n",
                      v.output_rate_before, v.output_rate_now);
        out += line;
    }
    for (const SlowUnit& u : v.units) {
        const std::string who = u.is_node ? "node " + u.node : "rank " + std::to_string(u.ranks.front());
        out += "                " + who + ": " + slow_unit_evidence(u) + "\n";
    }
    return out;
}

std::string slow_unit_evidence(const SlowUnit& u) {
    char text[320];
    if (u.evidence == SlowEvidence::slow_link)
        std::snprintf(text, sizeof text,
                      "its network round trips take %.2fx as long as at baseline since %s (%.3g ms, against %.3g ms; "
                      "its fastest connection to another host, every few rounds); slower than the other nodes' in "
                      "%.0f %% of its readings in the last %d rounds against %.0f %% at baseline (p = %.2g)",
                      u.compute_factor, slow_time(u.since).c_str(), u.link_ms, u.baseline_link_ms,
                      100 * u.recent_share, u.window, 100 * u.baseline_share, u.p_value);
    else if (u.evidence == SlowEvidence::cpu_throttled)
        std::snprintf(text, sizeof text,
                      "a CPU quota holds it back since %s, its peers' not: throttled in %.0f %% of its readings in the "
                      "last %d rounds against %.0f %% at baseline (p = %.2g); the job runs %.2fx slower by its peers' waiting",
                      slow_time(u.since).c_str(), 100 * u.recent_share, u.window, 100 * u.baseline_share, u.p_value,
                      u.compute_factor);
    else if (u.evidence == SlowEvidence::cpu_starved)
        std::snprintf(text, sizeof text,
                      "gets %.2fx less CPU than its peers since %s: ran %.0f %% of the time it could run, its peers "
                      "%.0f %%; starved in %.0f %% of the last %d rounds against %.0f %% at baseline (p = %.2g)",
                      u.compute_factor, slow_time(u.since).c_str(), 100 * u.cpu_share, 100 * u.peers_cpu_share,
                      100 * u.recent_share, u.window, 100 * u.baseline_share, u.p_value);
    else
        std::snprintf(text, sizeof text,
                      "computes %.2fx slower than its peers since %s; waited for in %.0f %% of the last %d rounds "
                      "against %.0f %% at baseline (p = %.2g)",
                      u.compute_factor, slow_time(u.since).c_str(), 100 * u.recent_share, u.window,
                      100 * u.baseline_share, u.p_value);
    return text;
}

}  // namespace jobsentry
