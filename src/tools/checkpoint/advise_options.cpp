#include "tools/checkpoint/advise_options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include <boost/program_options.hpp>

#include "base/duration.h"
#include "base/command_line.h"

namespace po = boost::program_options;

namespace jobsentry::ckpt {
namespace {

struct RawOptions {
    std::string mtbf, nodes, ckpt_cost, recovery, downtime, iter_mean, iter_sd, dist, iter_file;
};

po::options_description describe(RawOptions& r, AdviseOptions& o) {
    po::options_description d("Options of jobsentry ckpt advise");
    // clang-format off
    d.add_options()
        ("help,h", "print this help and exit")
        ("mtbf", po::value(&r.mtbf), "per-node mean time between failures, e.g. 24h or 1000d (required)")
        ("nodes", po::value(&r.nodes)->default_value("1"), "nodes of the job; the job's MTBF is MTBF/nodes")
        ("ckpt-cost", po::value(&r.ckpt_cost), "time to write one checkpoint, e.g. 90s (required)")
        ("recovery", po::value(&r.recovery), "time to restart from a checkpoint (default: the checkpoint cost)")
        ("downtime", po::value(&r.downtime)->default_value("0s"), "time lost after each failure before recovery")
        ("iter-mean", po::value(&r.iter_mean), "mean time of one iteration, e.g. 50s")
        ("iter-sd", po::value(&r.iter_sd)->default_value("0s"), "standard deviation of the iteration time")
        ("dist", po::value(&r.dist), "law of the iteration times: gamma, uniform, normal (default with --iter-mean)"
            " or empirical (default with --iter-file); with --iter-file, gamma/uniform/normal are fitted by moments")
        ("iter-file", po::value(&r.iter_file), "file of observed iteration times, one a line (seconds or with a unit)")
        ("json", po::bool_switch(&o.json), "print JSON instead of text");
    // clang-format on
    return d;
}

// A positive (or, with allow_zero, non-negative) duration with a unit.
std::string duration(const std::string& option, const std::string& value, bool allow_zero, double* out) {
    double s = parse_duration_seconds(value);
    if (s < 0 || (!allow_zero && s == 0) || !std::isfinite(s))
        return "--" + option + " " + value + ": accepted values are " + (allow_zero ? "durations" : "positive durations") +
               " with a unit ms, s, m, h or d, e.g. 90s, 1.5h, 24h";
    *out = s;
    return {};
}

std::string check(const RawOptions& r, AdviseOptions& o) {
    std::string e;
    if (r.mtbf.empty()) return "--mtbf is required (the per-node MTBF, e.g. --mtbf 24h)";
    if (r.ckpt_cost.empty()) return "--ckpt-cost is required (the time to write one checkpoint, e.g. --ckpt-cost 90s)";
    if (!(e = duration("mtbf", r.mtbf, false, &o.node_mtbf_s)).empty()) return e;
    {
        char* end = nullptr;
        errno = 0;
        long n = std::strtol(r.nodes.c_str(), &end, 10);
        if (r.nodes.empty() || *end != '\0' || errno != 0 || n < 1 || n > 10000000)
            return "--nodes " + r.nodes + ": accepted values are whole numbers from 1 to 10000000";
        o.nodes = static_cast<double>(n);
    }
    if (!(e = duration("ckpt-cost", r.ckpt_cost, false, &o.ckpt_cost_s)).empty()) return e;
    if (!r.recovery.empty() && !(e = duration("recovery", r.recovery, true, &o.recovery_s)).empty()) return e;
    if (!(e = duration("downtime", r.downtime, true, &o.downtime_s)).empty()) return e;
    if (!r.iter_mean.empty() && !r.iter_file.empty())
        return "--iter-mean and --iter-file exclude each other: give the law's moments or the observed times";
    if (!r.iter_mean.empty()) {
        if (!(e = duration("iter-mean", r.iter_mean, false, &o.iter_mean_s)).empty()) return e;
        if (!(e = duration("iter-sd", r.iter_sd, true, &o.iter_sd_s)).empty()) return e;
    } else if (r.iter_sd != "0s") {
        return "--iter-sd needs --iter-mean";
    }
    o.iter_file = r.iter_file;
    o.have_iterations = !r.iter_mean.empty() || !r.iter_file.empty();
    o.dist = r.iter_file.empty() ? DistKind::normal : DistKind::empirical;
    if (!r.dist.empty()) {
        if (!parse_dist_kind(r.dist, &o.dist))
            return "--dist " + r.dist + ": accepted values are gamma, uniform, normal, empirical";
        if (!o.have_iterations) return "--dist needs --iter-mean or --iter-file";
        if (o.dist == DistKind::empirical && r.iter_file.empty())
            return "--dist empirical needs --iter-file (the observed iteration times)";
    }
    if (!r.iter_mean.empty()) {
        if (o.dist == DistKind::gamma && o.iter_sd_s == 0)
            return "--iter-sd 0s with --dist gamma: a Gamma law needs a positive standard deviation";
        if (o.dist == DistKind::uniform && o.iter_sd_s * std::sqrt(3.0) > o.iter_mean_s)
            return "--iter-sd " + r.iter_sd + " with --dist uniform: mean ± sd·√3 must stay ≥ 0 (sd ≤ mean/√3)";
    }
    return {};
}

}  // namespace

AdviseParse parse_advise_options(const std::vector<std::string>& args) {
    AdviseParse out;
    RawOptions raw;
    po::options_description desc = describe(raw, out.options);
    out.error = parse_with(desc, args, &out.help, "jobsentry ckpt advise --help");
    if (out.help || !out.error.empty()) return out;
    out.error = check(raw, out.options);
    return out;
}

std::string advise_help() {
    RawOptions raw;
    AdviseOptions o;
    std::ostringstream s;
    s << "Usage: jobsentry ckpt advise --mtbf DURATION --ckpt-cost DURATION [options]\n\n"
         "Young/Daly checkpoint periods for an iterative job: the period P_YD, the static choice\n"
         "(checkpoint every k_static iterations) and the dynamic threshold W_th, with the expected\n"
         "slowdown of each. Durations need a unit: ms, s, m, h or d.\n\n"
      << describe(raw, o);
    return s.str();
}

std::vector<double> parse_iteration_times(const std::string& text, std::string* error) {
    std::vector<double> out;
    std::istringstream in(text);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        size_t hash = line.find('#');
        if (hash != std::string::npos) line.erase(hash);
        size_t b = line.find_first_not_of(" \t\r"), e = line.find_last_not_of(" \t\r");
        if (b == std::string::npos) continue;
        line = line.substr(b, e - b + 1);
        double v = parse_duration_seconds(line);
        if (v < 0) {
            char* end = nullptr;
            errno = 0;
            v = std::strtod(line.c_str(), &end);
            if (*end != '\0' || errno != 0 || line.find_first_not_of("0123456789.") != std::string::npos) v = -1;
        }
        if (!(v > 0) || !std::isfinite(v)) {
            *error = "line " + std::to_string(number) + " '" + line +
                     "': accepted values are positive times in seconds (50.2) or with a unit (50.2s, 800ms)";
            return {};
        }
        out.push_back(v);
    }
    if (out.empty()) *error = "no iteration times in the file (one positive time a line)";
    return out;
}

}  // namespace jobsentry::ckpt
