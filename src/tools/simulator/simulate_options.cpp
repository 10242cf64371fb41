#include "tools/simulator/simulate_options.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include <boost/program_options.hpp>

#include "tools/simulator/collectives.h"
#include "tools/simulator/params_file.h"
#include "base/command_line.h"

namespace po = boost::program_options;

namespace jobsentry::sim {
namespace {

struct Raw {
    std::string model = "jobsentry";
    std::string params_file;
    double L, o, g, G, O;
    long long S, procs, bytes, seed;
};

po::options_description describe(SimulateParse& p, Raw& raw) {
    const LogGOPS d;
    SimulationRequest& r = p.request;
    std::string names;
    for (const auto& n : collective_names()) names += (names.empty() ? "" : ", ") + n;
    po::options_description desc("Options (times in ns; G and O in ns per byte, charged for the bytes after the first)");
    // clang-format off
    desc.add_options()
        ("help,h", "print this help and exit")
        ("collective", po::value(&r.collective)->default_value(r.collective), ("collective to simulate: " + names).c_str())
        ("procs", po::value(&raw.procs)->default_value(r.procs), "number of processes P, 2..2147483647")
        ("bytes", po::value(&raw.bytes)->default_value(static_cast<long long>(r.bytes)), "message size s in bytes, >= 1")
        ("goal", po::value(&r.goal_file), "simulate this GOAL schedule file (schedgen's newline form or the ';' form) instead of --collective/--procs/--bytes")
        ("model", po::value(&raw.model)->default_value(raw.model), "timing rules: jobsentry (the project's, see docs/simulator.md) or loggopsim (LogGOPSim's own: the receiver's CPU busy o + max((s-1)O, (s-1)G) per message, rendezvous without a handshake)")
        ("noise-trace", po::value(&r.noise_trace), "noise trace (start_ns<TAB>duration_ns lines, as jobsentry noise --trace-dir writes) injected into o, O and calc")
        ("cosched", po::bool_switch(&r.cosched), "all processes read the trace from the same offset (co-scheduled noise); default: a random offset each")
        ("seed", po::value(&raw.seed)->default_value(static_cast<long long>(r.seed)), "seed of the per-process trace offsets, >= 0")
        ("params", po::value(&raw.params_file), "read L, o, g, G, O, S from this JSON file ({\"L\":..,\"o\":..,\"g\":..,\"G\":..,\"O\":..,\"S\":..}, as jobsentry loggp writes it; missing keys keep their defaults); --L, --o, ... given as well override the file")
        ("L", po::value(&raw.L)->default_value(static_cast<double>(d.L)), "latency L")
        ("o", po::value(&raw.o)->default_value(static_cast<double>(d.o)), "CPU overhead o per message")
        ("g", po::value(&raw.g)->default_value(static_cast<double>(d.g)), "NIC gap g per message")
        ("G", po::value(&raw.G)->default_value(d.G), "NIC gap G per byte")
        ("O", po::value(&raw.O)->default_value(d.O), "CPU overhead O per byte")
        ("S", po::value(&raw.S)->default_value(static_cast<long long>(d.S)), "eager limit S in bytes: larger messages use rendezvous")
        ("write-goal", po::value(&p.write_goal), "write the schedule (--collective or --goal) to this file as GOAL text in schedgen's form, and exit without simulating")
        ("predict", po::bool_switch(&p.predict), "with --noise-trace: print (JSON) the predicted slowdown of a dissemination barrier and a recursive-doubling allreduce of --bytes at 1024, 16384 and 1048576 processes (takes a minute and ~2 GiB)")
        ("json", po::bool_switch(&p.json), "print the result as JSON");
    // clang-format on
    return desc;
}

// "--L -5" would read "-5" as an option: join such pairs so that negative
// values reach the range check and get its message.
std::vector<std::string> join_negative_values(const std::vector<std::string>& args) {
    std::vector<std::string> out;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.rfind("--", 0) == 0 && a.find('=') == std::string::npos && i + 1 < args.size() &&
            args[i + 1].size() > 1 && args[i + 1][0] == '-' &&
            (std::isdigit(static_cast<unsigned char>(args[i + 1][1])) || args[i + 1][1] == '.')) {
            out.push_back(a + "=" + args[++i]);
        } else {
            out.push_back(a);
        }
    }
    return out;
}

std::string check(const Raw& raw, SimulationRequest& r) {
    std::ostringstream e;
    const std::pair<const char*, double> times[] = {{"L", raw.L}, {"o", raw.o}, {"g", raw.g}, {"G", raw.G}, {"O", raw.O}};
    for (const auto& [name, v] : times)
        if (!std::isfinite(v) || v < 0 || v > 1e15)
            return (e << "--" << name << " " << v << ": accepted values are 0..1e15 ns", e.str());
    if (raw.seed < 0) return (e << "--seed " << raw.seed << ": accepted values are 0 or more", e.str());
    if (raw.S < 0) return (e << "--S " << raw.S << ": accepted values are 0 or more bytes", e.str());
    if (raw.model != "jobsentry" && raw.model != "loggopsim")
        return (e << "--model " << raw.model << ": unknown; accepted values are jobsentry, loggopsim", e.str());
    r.model = raw.model == "loggopsim" ? Model::loggopsim : Model::jobsentry;
    if (r.goal_file.empty()) {
        if (raw.procs < 2 || raw.procs > 0x7fffffff)
            return (e << "--procs " << raw.procs << ": accepted values are 2..2147483647", e.str());
        if (raw.bytes < 1) return (e << "--bytes " << raw.bytes << ": accepted values are 1 or more", e.str());
        bool known = false;
        for (const auto& n : collective_names()) known |= n == r.collective;
        if (!known) {
            std::string names;
            for (const auto& n : collective_names()) names += (names.empty() ? "" : ", ") + n;
            return (e << "--collective " << r.collective << ": unknown; accepted values are " << names, e.str());
        }
    }
    r.procs = static_cast<std::uint32_t>(raw.procs);
    r.seed = static_cast<std::uint64_t>(raw.seed);
    r.bytes = static_cast<std::uint64_t>(raw.bytes);
    r.params.L = static_cast<Time>(std::llround(raw.L));
    r.params.o = static_cast<Time>(std::llround(raw.o));
    r.params.g = static_cast<Time>(std::llround(raw.g));
    r.params.G = raw.G;
    r.params.O = raw.O;
    r.params.S = static_cast<std::uint64_t>(raw.S);
    return "";
}

// --params FILE: the file's values replace the defaults of the options not
// given on the command line.
void apply_params_file(Raw& raw, const po::variables_map& vm) {
    const LogGOPS f = read_params_file(raw.params_file, LogGOPS{});
    auto from_file = [&vm](const char* name) { return vm[name].defaulted(); };
    if (from_file("L")) raw.L = static_cast<double>(f.L);
    if (from_file("o")) raw.o = static_cast<double>(f.o);
    if (from_file("g")) raw.g = static_cast<double>(f.g);
    if (from_file("G")) raw.G = f.G;
    if (from_file("O")) raw.O = f.O;
    if (from_file("S")) raw.S = static_cast<long long>(f.S);
}

}  // namespace

SimulateParse parse_simulate_options(const std::vector<std::string>& args) {
    SimulateParse p;
    Raw raw{};
    po::options_description desc = describe(p, raw);
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(join_negative_values(args)).options(desc).style(command_line_style()).run(), vm);
        if (vm.count("help")) {
            p.help = true;
            return p;
        }
        po::notify(vm);
        if (!raw.params_file.empty()) {
            try {
                apply_params_file(raw, vm);
            } catch (const std::invalid_argument& e) {
                p.error = e.what();
                return p;
            }
        }
    } catch (const po::error& e) {
        p.error = std::string(e.what()) + " (see jobsentry simulate --help)";
        return p;
    }
    p.error = check(raw, p.request);
    if (p.error.empty() && p.predict && p.request.noise_trace.empty())
        p.error = "--predict: needs --noise-trace FILE (the trace whose slowdowns to predict)";
    if (p.error.empty() && p.predict && !p.write_goal.empty())
        p.error = "--write-goal: writes the schedule of --collective or --goal; not accepted with --predict";
    if (p.error.empty() && p.predict && p.request.model != Model::jobsentry)
        p.error = "--predict: predicts with the project's model only; accepted: --model jobsentry (the default)";
    return p;
}

std::string simulate_help() {
    SimulateParse p;
    Raw raw{};
    std::ostringstream out;
    out << "Usage: jobsentry simulate [--collective NAME --procs N --bytes B | --goal FILE]\n"
           "                          [--noise-trace FILE [--cosched] [--seed N]]\n"
           "                          [--params FILE] [LogGOPS parameters] [--json]\n"
           "       jobsentry simulate --predict --noise-trace FILE [--bytes B] [--cosched] [--seed N]\n\n"
           "Simulates a collective (or a GOAL schedule) in the LogGOPS model, without noise and, with\n"
           "--noise-trace, with the trace's detours stealing CPU time from o, O and calc, and prints\n"
           "the makespan, the slowdown against the noise-free run, the events and the events per second.\n"
           "Defaults are the Odin cluster's parameters from Hoefler et al. (SC10); see docs/simulator.md.\n\n"
        << describe(p, raw);
    return out.str();
}

}  // namespace jobsentry::sim
