#include "slurm/plugin/checkpoint_option.h"
#include "base/duration.h"
#include "tools/checkpoint/cost_guess.h"

#include <csignal>
#include <cmath>

namespace jobsentry {
namespace {

struct NamedSignal {
    const char* name;
    int number;
};
// Signals an application may reasonably trap to checkpoint; not KILL, STOP
// or those that mean a fault.
constexpr NamedSignal kSignals[] = {{"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"HUP", SIGHUP},
                                    {"INT", SIGINT},   {"TERM", SIGTERM}, {"ALRM", SIGALRM}};

constexpr double kMaxCostS = 86400;

// Durations passed on in whole milliseconds: every reader
// (parse_duration_seconds, jobsentry_ckpt) takes "90000ms", none takes "9e4s".
std::string as_ms(double seconds) { return std::to_string(std::llround(seconds * 1000)) + "ms"; }

}  // namespace

std::string checkpoint_signal_names() {
    std::string out;
    for (const auto& s : kSignals) out += (out.empty() ? "" : ", ") + std::string(s.name);
    return out;
}

namespace {

CheckpointOptionParse parse_value(const char* value, const SitePolicy& policy) {
    CheckpointOptionParse out;
    const std::string text = value ? value : "";
    if (text == "off") return out;
    const std::string accepted = "accepted values are signal:SIG[,cost=DURATION] or off, SIG one of " +
                                 checkpoint_signal_names() + " (e.g. --checkpoint=signal:USR1,cost=90s)";
    if (text.empty() || text == "(null)" || text.size() > 256) {
        out.error = "--checkpoint: " + accepted;
        return out;
    }
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t end = text.find(',', pos);
        const std::string item = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        pos = end == std::string::npos ? text.size() + 1 : end + 1;
        if (item.rfind("signal:", 0) == 0) {
            std::string name = item.substr(7);
            if (name.rfind("SIG", 0) == 0) name = name.substr(3);
            out.request.signal = 0;
            for (const auto& s : kSignals)
                if (name == s.name) {
                    out.request.signal = s.number;
                    out.request.signal_name = s.name;
                }
            if (out.request.signal == 0) {
                out.error = "--checkpoint=" + item + ": accepted signals are " + checkpoint_signal_names();
                return out;
            }
        } else if (item.rfind("cost=", 0) == 0) {
            double c = parse_duration_seconds(item.substr(5));
            if (!(c > 0) || c > kMaxCostS) {
                out.error = "--checkpoint " + item +
                            ": accepted values are positive durations up to 1d with a unit ms, s, m, h or d, e.g. 90s";
                return out;
            }
            out.request.cost_s = c;
        } else {
            out.error = "--checkpoint: unknown key '" + item + "'; " + accepted;
            return out;
        }
    }
    if (out.request.signal == 0) {
        out.error = "--checkpoint=" + text + ": no signal:SIG given; " + accepted;
        return out;
    }
    if (!(policy.mtbf_s > 0)) {
        out.error = "--checkpoint: this site sets no node MTBF (plugstack.conf mtbf=), so there is no Young/Daly "
                    "period to signal at; ask the administrators";
    }
    return out;
}

}  // namespace

CheckpointOptionParse parse_checkpoint_option(const char* value, const SitePolicy& policy) {
    CheckpointOptionParse out = parse_value(value, policy);
    if (!out.error.empty()) out.request = {};  // a refused value asks for nothing
    return out;
}

std::vector<std::string> checkpoint_supervisor_args(const SitePolicy& policy, const CheckpointRequest& request,
                                                    bool hang_detect) {
    std::vector<std::string> args;
    if (!(policy.mtbf_s > 0)) return args;
    args = {"--mtbf", as_ms(policy.mtbf_s)};
    const double cost = request.cost_s > 0 ? request.cost_s : policy.ckpt_cost_s;
    if (cost > 0) {
        args.push_back("--ckpt-cost");
        args.push_back(as_ms(cost));
    }
    if (request.signal > 0) {
        args.push_back("--ckpt-signal");
        args.push_back(std::to_string(request.signal));
        if (!hang_detect) args.push_back("--no-hang-detect");
    }
    return args;
}

std::vector<std::pair<std::string, std::string>> checkpoint_environment(const SitePolicy& policy) {
    std::vector<std::pair<std::string, std::string>> env;
    if (policy.mtbf_s > 0) env.emplace_back("JOBSENTRY_MTBF", as_ms(policy.mtbf_s));
    if (policy.mtbf_s > 0 && policy.ckpt_cost_s > 0) env.emplace_back("JOBSENTRY_CKPT_COST", as_ms(policy.ckpt_cost_s));
    return env;
}

std::string checkpoint_option_usage(const SitePolicy& policy) {
    if (!(policy.mtbf_s > 0)) return "Checkpoint signal at the Young/Daly period (jobsentry); not available here (no mtbf=)";
    return "Send SIG to the batch shell at the Young/Daly period (jobsentry): signal:SIG[,cost=DURATION], SIG one of " +
           checkpoint_signal_names() + "; cost is the time one checkpoint takes (default " +
           as_ms(policy.ckpt_cost_s > 0 ? policy.ckpt_cost_s : ckpt::kCheckpointCostGuessS) + ")";
}

}  // namespace jobsentry
