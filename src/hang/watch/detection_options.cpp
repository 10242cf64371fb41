#include "hang/watch/detection_options.h"

#include <sstream>
#include <utility>

#include "hang/watch/detection_spec.h"

namespace po = boost::program_options;

namespace jobsentry {
namespace {

// A row's help as --help shows it: the spec's text and what it accepts.
std::string described(DetectionOption id) {
    const OptionSpec& o = kDetectionOptions[id];
    if (!has_range(o)) return o.help;
    return std::string(o.help) + "; " + accepted_range(o, o.cli);
}

const char* flag(DetectionOption id) { return kDetectionOptions[id].cli; }

}  // namespace

void add_detection_options(po::options_description& d, DetectionSettings& o) {
    // clang-format off
    d.add_options()
        (flag(kAlpha), po::value(&o.alpha)->default_value(o.alpha), described(kAlpha).c_str())
        (flag(kInterval), po::value(&o.interval_ms)->default_value(o.interval_ms), described(kInterval).c_str())
        (flag(kMaxInterval), po::value(&o.max_interval_ms)->default_value(o.max_interval_ms),
            described(kMaxInterval).c_str())
        (flag(kRanks), po::value(&o.ranks)->default_value(o.ranks), described(kRanks).c_str())
        ((std::string(flag(kVerbose)) + ",v").c_str(), po::bool_switch(&o.verbose), described(kVerbose).c_str())
        (flag(kSeed), po::value(&o.seed)->default_value(o.seed), described(kSeed).c_str())
        (flag(kVerifyRounds), po::value(&o.verify_rounds)->default_value(o.verify_rounds),
            described(kVerifyRounds).c_str())
        (flag(kSpinVerify), po::value(&o.spin_verify_ms)->default_value(o.spin_verify_ms),
            described(kSpinVerify).c_str())
        (flag(kSlowBaseline), po::value(&o.slow_baseline_rounds)->default_value(o.slow_baseline_rounds),
            described(kSlowBaseline).c_str())
        (flag(kSlowAlpha), po::value(&o.slow_alpha)->default_value(o.slow_alpha), described(kSlowAlpha).c_str())
        (flag(kCpuBudget), po::value(&o.cpu_budget_percent)->default_value(o.cpu_budget_percent),
            described(kCpuBudget).c_str());
    // clang-format on
}

std::string check_detection_settings(const DetectionSettings& s) {
    const std::pair<DetectionOption, double> values[] = {
        {kAlpha, s.alpha},           {kInterval, s.interval_ms},         {kMaxInterval, s.max_interval_ms},
        {kRanks, s.ranks},           {kVerifyRounds, s.verify_rounds},   {kSpinVerify, s.spin_verify_ms},
        {kSlowBaseline, s.slow_baseline_rounds}, {kSlowAlpha, s.slow_alpha}, {kCpuBudget, s.cpu_budget_percent}};
    for (const auto& [id, v] : values) {
        const OptionSpec& o = kDetectionOptions[id];
        if (in_range(o, v) && !(id == kMaxInterval && v < s.interval_ms)) continue;
        std::ostringstream e;
        e << "--" << o.cli << " " << v << ": accepted values are " << accepted_range(o, o.cli);
        return e.str();
    }
    return {};
}

}  // namespace jobsentry
