#include "tools/noise/noise_health.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/noise/noise_report.h"

namespace jobsentry {

std::optional<NoiseBaseline> parse_noise_baseline(const std::string& json_text, std::string* error) {
    const std::string accepted = "accepted: the output of `jobsentry noise --json` on a healthy node";
    if (json_text.size() > kMaxBaselineBytes) {
        *error = "larger than " + std::to_string(kMaxBaselineBytes) + " bytes; " + accepted;
        return std::nullopt;
    }
    const nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("pus") || !j["pus"].is_array()) {
        *error = "not a JSON object with a 'pus' list; " + accepted;
        return std::nullopt;
    }
    std::vector<double> levels;
    for (const auto& pu : j["pus"]) {
        if (!pu.is_object() || !pu.contains("noise_percent")) continue;  // a PU that could not be measured
        const auto& v = pu["noise_percent"];
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0 || v.get<double>() > 100) {
            *error = "a PU's noise_percent is not a number from 0 to 100; " + accepted;
            return std::nullopt;
        }
        levels.push_back(v.get<double>());
    }
    if (levels.empty()) {
        *error = "no measured PU (no 'noise_percent' in 'pus'); " + accepted;
        return std::nullopt;
    }
    std::sort(levels.begin(), levels.end());
    const size_t n = levels.size();
    NoiseBaseline out;
    out.noise_percent = n % 2 ? levels[n / 2] : (levels[n / 2 - 1] + levels[n / 2]) / 2;
    out.pus = static_cast<int>(n);
    if (auto it = j.find("cpu_model"); it != j.end()) {
        if (!it->is_string() || it->get<std::string>().size() > 200) {
            *error = "'cpu_model' is not a string of at most 200 characters; " + accepted;
            return std::nullopt;
        }
        out.cpu_model = it->get<std::string>();
    }
    return out;
}

std::string baseline_mismatch(const NoiseBaseline& baseline, const ProbeResult& node) {
    if (baseline.cpu_model.empty() || node.cpu_model.empty() || baseline.cpu_model == node.cpu_model) return "";
    return "measured on " + baseline.cpu_model + ", this node is " + node.cpu_model;
}

NoiseHealth judge_node_noise(const ProbeResult& node, const NoiseBaseline& baseline, double factor_limit) {
    NoiseHealth h;
    h.baseline_percent = baseline.noise_percent;
    const PuResult* worst = noisiest_pu(node);
    if (!worst) return h;
    h.measured = true;
    h.worst_cpu = worst->cpu;
    h.node_percent = worst->stats.noise_percent;
    if (baseline.noise_percent > 0) h.factor = h.node_percent / baseline.noise_percent;
    else h.factor = h.node_percent > 0 ? std::numeric_limits<double>::infinity() : 0;
    h.noisy = h.factor >= factor_limit && h.node_percent - baseline.noise_percent >= kMinNoisyPoints;
    return h;
}

std::string noise_health_text(const NoiseHealth& health) {
    if (!health.measured) return "";
    std::ostringstream out;
    out << "; " << (health.noisy ? "NOISY " : "");
    if (std::isfinite(health.factor)) out << std::fixed << std::setprecision(1) << health.factor << "x";
    else out << "above";
    out << " the site baseline " << std::fixed << std::setprecision(2) << health.baseline_percent << "%";
    return out.str();
}

}  // namespace jobsentry
