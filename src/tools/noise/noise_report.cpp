#include "tools/noise/noise_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace jobsentry {

namespace {

double round_to(double v, double step) { return std::round(v / step) * step; }

std::string human_ns(uint64_t ns) {
    char buf[32];
    if (ns >= 1000000) std::snprintf(buf, sizeof buf, "%.2f ms", static_cast<double>(ns) / 1e6);
    else if (ns >= 1000) std::snprintf(buf, sizeof buf, "%.1f us", static_cast<double>(ns) / 1e3);
    else std::snprintf(buf, sizeof buf, "%llu ns", static_cast<unsigned long long>(ns));
    return buf;
}

}  // namespace

nlohmann::json noise_json(const ProbeResult& result) {
    nlohmann::json pus = nlohmann::json::array();
    for (const PuResult& pu : result.pus) {
        nlohmann::json j{{"cpu", pu.cpu}};
        if (!pu.error.empty()) {
            j["error"] = pu.error;
            pus.push_back(j);
            continue;
        }
        const DetourStats& s = pu.stats;
        nlohmann::json histogram = nlohmann::json::array();
        for (const HistogramBin& b : s.histogram)
            histogram.push_back({{"low_ns", b.low_ns}, {"high_ns", b.high_ns}, {"count", b.count}});
        j.update({{"resolution_ns", round_to(pu.resolution_ns, 0.01)},
                  {"threshold_ns", pu.threshold_ns},
                  {"measured_ns", pu.measured_ns},
                  {"noise_percent", s.noise_percent},
                  {"detours", s.detours},
                  {"frequency_hz", s.frequency_hz},
                  {"max_detour_ns", s.max_ns},
                  {"median_detour_ns", s.median_ns},
                  {"p99_detour_ns", s.p99_ns},
                  {"buffer_full", pu.buffer_full},
                  {"histogram", histogram}});
        pus.push_back(j);
    }
    nlohmann::json out{{"clock", result.clock}, {"tsc_ghz", result.tsc_ghz}, {"duration_ns", result.duration_ns}, {"pus", pus}};
    if (!result.cpu_model.empty()) out["cpu_model"] = result.cpu_model;
    return out;
}

std::string noise_table(const ProbeResult& result) {
    std::ostringstream out;
    char line[256];
    std::snprintf(line, sizeof line, "%4s %9s %9s %9s %8s %10s %10s %10s %10s\n", "cpu", "res_ns", "thresh_ns",
                  "noise_%", "detours", "freq_Hz", "median", "p99", "max");
    out << line;
    std::string notes;
    for (const PuResult& pu : result.pus) {
        if (!pu.error.empty()) {
            std::snprintf(line, sizeof line, "%4d  not measured: %s\n", pu.cpu, pu.error.c_str());
            out << line;
            continue;
        }
        const DetourStats& s = pu.stats;
        std::snprintf(line, sizeof line, "%4d %9.1f %9llu %9.4f %8llu %10.1f %10s %10s %10s\n", pu.cpu,
                      pu.resolution_ns, static_cast<unsigned long long>(pu.threshold_ns), s.noise_percent,
                      static_cast<unsigned long long>(s.detours), s.frequency_hz, human_ns(s.median_ns).c_str(),
                      human_ns(s.p99_ns).c_str(), human_ns(s.max_ns).c_str());
        out << line;
        if (pu.buffer_full)
            notes += "cpu " + std::to_string(pu.cpu) + ": the detour buffer filled after " +
                     human_ns(pu.measured_ns) + "; figures cover that time only (raise --max-detours)\n";
    }
    out << notes;
    out << "clock " << result.clock;
    if (result.clock == "tsc") {
        std::snprintf(line, sizeof line, " (%.3f GHz)", result.tsc_ghz);
        out << line;
    }
    out << "; histograms (detour length: count):\n";
    for (const PuResult& pu : result.pus) {
        if (!pu.error.empty()) continue;
        out << "  cpu " << pu.cpu << ":";
        for (const HistogramBin& b : pu.stats.histogram) out << "  " << human_ns(b.low_ns) << ": " << b.count;
        out << '\n';
    }
    return out.str();
}

void write_noise_trace(std::ostream& out, const PuResult& pu) {
    // The measured span, so that `jobsentry simulate --noise-trace` repeats the
    // trace with its true period (quiet time after the last detour included).
    // The last detour may end after the span (the iteration that straddled the
    // end of the measurement): the period covers it, or the reader refuses the file.
    uint64_t period = pu.measured_ns;
    for (const Detour& d : pu.trace) period = std::max(period, d.start_ns + d.duration_ns);
    out << "# period_ns " << period << '\n';
    for (const Detour& d : pu.trace) out << d.start_ns << '\t' << d.duration_ns << '\n';
}

const PuResult* noisiest_pu(const ProbeResult& result) {
    const PuResult* worst = nullptr;
    for (const PuResult& pu : result.pus)
        if (pu.error.empty() && (!worst || pu.stats.noise_percent > worst->stats.noise_percent)) worst = &pu;
    return worst;
}

std::string noise_trace_name(int cpu) { return "cpu" + std::to_string(cpu) + ".tsv"; }

}  // namespace jobsentry
