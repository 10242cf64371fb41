#include "tools/loggp/loggp_options.h"

#include <algorithm>
#include <sstream>

#include <boost/program_options.hpp>
#include "base/command_line.h"

namespace po = boost::program_options;

namespace jobsentry::loggp {
namespace {

constexpr std::uint64_t kMaxBytes = 64ull << 20;
constexpr const char* kBytesAccepted =
    "accepted is a comma-separated list of message sizes in bytes, each 1..67108864, at most 64 sizes "
    "(e.g. 1,1024,65536)";

constexpr const char* kUsage =
    "Usage: jobsentry loggp [--bytes LIST] [--reps N] [--burst N] [--out FILE] [--mpirun CMD] [--probe PATH]\n\n"
    "Measures the LogGP parameters L, o, g, G, O between two ranks (ping-pong, back-to-back bursts and the\n"
    "time spent in the send and receive calls, Netgauge's method), prints the medians per size and the\n"
    "fitted parameters, and writes them as JSON for jobsentry simulate --params FILE. Runs\n"
    "'MPIRUN jobsentry-loggp-probe ...' (two ranks); see docs/simulator.md.\n\n";

std::string join(const std::vector<std::uint64_t>& v) {
    std::string s;
    for (auto b : v) s += (s.empty() ? "" : ",") + std::to_string(b);
    return s;
}

po::options_description describe(LoggpOptions& o, std::string& bytes) {
    po::options_description desc("Options");
    // clang-format off
    desc.add_options()
        ("help,h", "print this help and exit")
        ("bytes", po::value(&bytes)->default_value(join(o.bytes)), "message sizes in bytes, comma-separated, each 1..67108864 (two or more for G and O)")
        ("reps", po::value(&o.reps)->default_value(o.reps), "repetitions of every measurement per size, 1..100000 (the medians are used)")
        ("burst", po::value(&o.burst)->default_value(o.burst), "n of the back-to-back burst PRTT(n,0,s) that gives g and G, 2..1000")
        ("out", po::value(&o.out)->default_value(o.out), "write L, o, g, G, O here as JSON, the file jobsentry simulate --params reads")
        ("mpirun", po::value(&o.mpirun)->default_value(o.mpirun), "the launcher and its arguments (split on blanks); the probe and its arguments follow")
        ("probe", po::value(&o.probe), "the measuring MPI program (default: $JOBSENTRY_LOGGP_PROBE, else jobsentry-loggp-probe next to jobsentry, in ../lib/jobsentry or the build tree)");
    // clang-format on
    return desc;
}

}  // namespace

std::vector<std::uint64_t> parse_bytes_list(const std::string& text, std::string& error) {
    std::vector<std::uint64_t> out;
    if (text.empty()) {
        error = "--bytes '': empty; " + std::string(kBytesAccepted);
        return out;
    }
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const bool digits = !item.empty() && item.size() <= 12 &&
                            std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
        const std::uint64_t v = digits ? std::stoull(item) : 0;
        if (!digits || v < 1 || v > kMaxBytes) {
            error = "--bytes '" + text + "': '" + item + "' is " +
                    (digits ? "out of range" : item.empty() ? "an empty item" : "not a whole number") + "; " +
                    kBytesAccepted;
            return {};
        }
        out.push_back(v);
    }
    if (!text.empty() && text.back() == ',') {
        error = "--bytes '" + text + "': ends with ','; " + std::string(kBytesAccepted);
        return {};
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    if (out.size() > 64) {
        error = "--bytes '" + text + "': " + std::to_string(out.size()) + " sizes; " + kBytesAccepted;
        return {};
    }
    return out;
}

LoggpOptions parse_loggp_options(const std::vector<std::string>& args) {
    LoggpOptions o;
    std::string bytes;
    po::options_description desc = describe(o, bytes);
    o.error = parse_with(desc, args, &o.help, "jobsentry loggp --help");
    if (o.help || !o.error.empty()) return o;
    o.bytes = parse_bytes_list(bytes, o.error);
    if (!o.error.empty()) return o;
    if (o.reps < 1 || o.reps > 100000)
        o.error = "--reps " + std::to_string(o.reps) + ": accepted values are 1..100000";
    else if (o.burst < 2 || o.burst > 1000)
        o.error = "--burst " + std::to_string(o.burst) + ": accepted values are 2..1000";
    else if (o.out.empty())
        o.error = "--out '': accepted is a file name";
    else if (o.mpirun.find_first_not_of(" \t") == std::string::npos)
        o.error = "--mpirun '': accepted is a launcher and its arguments, e.g. 'mpirun -np 2'";
    return o;
}

std::string loggp_help() {
    LoggpOptions o;
    std::string bytes;
    std::ostringstream table;
    table << describe(o, bytes);
    std::string text = kUsage + table.str();
    if (text.back() != '\n') text += '\n';  // Boost ends a wrapped last description without one
    return text;
}

}  // namespace jobsentry::loggp
