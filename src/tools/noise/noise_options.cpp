#include "tools/noise/noise_options.h"

#include <boost/program_options.hpp>

#include <sstream>

#include "base/command_line.h"
#include "base/duration.h"

namespace po = boost::program_options;

namespace jobsentry {
namespace {

constexpr long kMaxDurationMs = 3600 * 1000;

po::options_description describe(NoiseOptions& o) {
    po::options_description d("Options");
    // clang-format off
    d.add_options()
        ("help,h", "print this help and exit")
        ("cpus", po::value(&o.cpus)->default_value(o.cpus),
            "PUs to probe: 'all' (every PU this process may run on) or a list such as 0,2-3")
        ("duration", po::value(&o.duration)->default_value(o.duration),
            "how long to measure, with a unit: 500ms, 5s, 1.5s, 2m (more than 0, at most 60m)")
        ("threshold-ns", po::value(&o.threshold_ns)->default_value(o.threshold_ns),
            "iterations longer than this many ns are detours; 0: 9 x each PU's resolution (0..1000000000)")
        ("json", po::value(&o.json), "write the results as JSON to this file")
        ("trace-dir", po::value(&o.trace_dir),
            "write each PU's detours to DIR/cpuN.tsv as lines start_ns<TAB>duration_ns (DIR is created)")
        ("max-detours", po::value(&o.max_detours)->default_value(o.max_detours),
            "detours kept per PU, preallocated (16 bytes each); a full buffer ends that PU's run early "
            "(1000..100000000)")
        ("clock", po::value(&o.clock)->default_value(o.clock),
            "auto (the TSC when it is invariant, else clock_gettime), tsc or monotonic")
        ("predict", po::bool_switch(&o.predict),
            "also predict, with the LogGOPS simulator, how much the noisiest PU's noise slows a barrier and an "
            "allreduce at the --predict-procs scales (1 M processes: about a minute and 2 GiB)")
        ("predict-procs", po::value(&o.predict_procs)->default_value(o.predict_procs),
            "process counts for --predict, comma-separated, each 2..16777216")
        ("predict-goal", po::value(&o.predict_goals)->composing(),
            "with --predict: also the slowdown of this application's GOAL schedule (jobsentry trace-to-goal, "
            "with --scale for larger scales); may be given several times")
        ("predict-params", po::value(&o.predict_params),
            "with --predict: LogGOPS parameters, the JSON jobsentry loggp writes (default: the Odin cluster's)");
    // clang-format on
    return d;
}

bool parse_scales(const std::string& text, std::vector<uint32_t>* out) {
    out->clear();
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (item.empty() || item.size() > 9 || item.find_first_not_of("0123456789") != std::string::npos) return false;
        const unsigned long v = std::stoul(item);
        if (v < 2 || v > 16777216) return false;
        out->push_back(static_cast<uint32_t>(v));
    }
    return !out->empty();
}

std::string check(NoiseOptions& o, ProbeSettings* s) {
    std::ostringstream e;
    long ms = parse_duration_ms(o.duration);
    if (ms <= 0 || ms > kMaxDurationMs)
        e << "--duration " << o.duration << ": accepted values are durations above 0 and up to 60m with a unit, "
          << "e.g. 500ms, 5s, 2m";
    else if (o.threshold_ns < 0 || o.threshold_ns > 1000000000)
        e << "--threshold-ns " << o.threshold_ns << ": accepted values are 0 (9 x the resolution) .. 1000000000";
    else if (o.max_detours < 1000 || o.max_detours > 100000000)
        e << "--max-detours " << o.max_detours << ": accepted values are 1000..100000000";
    else if (!parse_scales(o.predict_procs, &o.predict_scales))
        e << "--predict-procs " << o.predict_procs << ": accepted values are process counts 2..16777216, "
          << "comma-separated, e.g. 1024,16384";
    else if (!o.predict && (!o.predict_goals.empty() || !o.predict_params.empty()))
        e << (o.predict_goals.empty() ? "--predict-params" : "--predict-goal") << " is used by --predict: give --predict "
          << "as well";
    else if (o.clock != "auto" && o.clock != "tsc" && o.clock != "monotonic")
        e << "--clock " << o.clock << ": accepted values are auto, tsc, monotonic";
#if !JOBSENTRY_HAVE_TSC
    else if (o.clock == "tsc")
        e << "--clock tsc: this build has no TSC (not x86); accepted values are auto, monotonic";
#endif
    if (!e.str().empty()) return e.str();
    s->duration_ns = static_cast<uint64_t>(ms) * 1000000ull;
    s->threshold_ns = static_cast<uint64_t>(o.threshold_ns);
    s->max_detours = static_cast<size_t>(o.max_detours);
    s->clock = o.clock == "tsc" ? ClockChoice::tsc : o.clock == "monotonic" ? ClockChoice::monotonic
                                                                           : ClockChoice::automatic;
    return {};
}

}  // namespace

NoiseParse parse_noise_options(const std::vector<std::string>& args) {
    NoiseParse out;
    po::options_description desc = describe(out.options);
    out.error = parse_with(desc, args, &out.help, "jobsentry noise --help");
    if (out.help || !out.error.empty()) return out;
    out.error = check(out.options, &out.settings);
    return out;
}

std::string noise_help() {
    NoiseOptions defaults;
    std::ostringstream out;
    out << "Usage: jobsentry noise [options]\n\n"
           "Measures OS noise with the selfish-detour method: one thread per PU, pinned with hwloc,\n"
           "spins on a serialised clock read and records every iteration longer than the threshold.\n"
           "Prints a table per PU (resolution, noise overhead %, detours, frequency, median / p99 /\n"
           "max detour, histogram). Exit status: 0, 1 when a PU could not be measured, 2 for bad\n"
           "options (checked before any measurement).\n\n"
        << describe(defaults);
    return out.str();
}

}  // namespace jobsentry
