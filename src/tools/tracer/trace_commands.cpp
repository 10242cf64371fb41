// The two tracer subcommands (see trace_commands.h). One options table per
// command drives parsing and --help.
#include "tools/tracer/trace_commands.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include <boost/program_options.hpp>

#include "tools/tracer/extrapolate.h"
#include "tools/tracer/goal_from_trace.h"
#include "tools/simulator/goal_writer.h"
#include "tools/mpiwrap/preload_launch.h"
#include "tools/tracer/trace_reader.h"
#include "base/command_line.h"
#include "base/log.h"

namespace po = boost::program_options;

namespace jobsentry {

namespace {

std::optional<jobtrace::Allreduce> allreduce_algorithm(const std::string& name) {
    using jobtrace::Allreduce;
    for (const auto& [text, algorithm] : {std::pair{"recursive-doubling", Allreduce::recursive_doubling},
                                          {"reduce-bcast", Allreduce::reduce_bcast},
                                          {"rabenseifner", Allreduce::rabenseifner},
                                          {"by-size", Allreduce::by_size}})
        if (name == text) return algorithm;
    return std::nullopt;
}

constexpr unsigned long kMaxScale = 1ul << 24;  // the engine's schedules reach 1 M ranks; leave room

po::options_description trace_spec(TraceOptions* o) {
    po::options_description desc("Options of jobsentry trace");
    desc.add_options()("help,h", "print this help")(
        "trace-dir", po::value(&o->trace_dir)->default_value(o->trace_dir),
        "directory for the per-rank traces rank-N.jstrace (created; old ones in it are removed)")(
        "mpi", po::value(&o->mpi)->default_value(o->mpi),
        "the program's MPI, which picks the preload module: openmpi, mpich, or auto (as rma-check)");
    return desc;
}

po::options_description to_goal_spec(TraceToGoalOptions* o) {
    po::options_description desc("Options of jobsentry trace-to-goal");
    desc.add_options()("help,h", "print this help")(
        "trace-dir", po::value(&o->trace_dir)->required(), "directory of rank-N.jstrace files (also positional)")(
        "output,o", po::value(&o->output), "GOAL file to write (default: standard output)")(
        "allreduce", po::value(&o->allreduce)->default_value(o->allreduce),
        "the algorithm MPI_Allreduce is expanded into: recursive-doubling, reduce-bcast (binomial reduce to "
        "rank 0, then binomial bcast), rabenseifner (reduce-scatter by recursive halving, then allgather by "
        "recursive doubling) or by-size (recursive doubling up to 2048 bytes, Rabenseifner above: MPICH's "
        "classic rule)")(
        "scale", po::value(&o->scale_text),
        "extrapolate the traced job to this many ranks (weak scaling: each rank keeps its compute times and "
        "message sizes; docs/simulator.md, Extrapolation)")(
        "scale-rule", po::value(&o->scale_rule)->default_value(o->scale_rule),
        "how --scale maps ranks: offsets (a ring or a 1-D chain, partners kept at their offsets) or replicate "
        "(LogGOPSim's schedgen: whole copies of the traced job, point-to-point within each copy)");
    return desc;
}

}  // namespace

CommandParse<TraceOptions> parse_trace_options(const std::vector<std::string>& args) {
    CommandParse<TraceOptions> out;
    auto dash = std::find(args.begin(), args.end(), "--");
    if (dash != args.end()) out.options.command.assign(dash + 1, args.end());
    out.error = parse_with(trace_spec(&out.options), {args.begin(), dash}, &out.help, "jobsentry trace --help");
    if (!out.error.empty() || out.help) return out;
    if (out.options.command.empty())
        out.error = "no program given; usage: jobsentry trace [options] -- mpirun -np 4 ./app";
    else if (out.options.mpi != "auto" && !parse_mpi_flavor(out.options.mpi))
        out.error = "--mpi '" + out.options.mpi + "': accepted are auto, openmpi and mpich";
    else if (out.options.trace_dir.empty())
        out.error = "--trace-dir must not be empty";
    return out;
}

CommandParse<TraceToGoalOptions> parse_trace_to_goal_options(const std::vector<std::string>& args) {
    CommandParse<TraceToGoalOptions> out;
    po::positional_options_description pos;
    pos.add("trace-dir", 1);
    out.error = parse_with(to_goal_spec(&out.options), args, &out.help, "jobsentry trace-to-goal --help", &pos);
    if (out.error.empty() && !out.help && !allreduce_algorithm(out.options.allreduce))
        out.error = "--allreduce '" + out.options.allreduce +
                    "': accepted are recursive-doubling, reduce-bcast, rabenseifner and by-size";
    else if (out.error.empty() && !out.help && out.options.scale_rule != "offsets" && out.options.scale_rule != "replicate")
        out.error = "--scale-rule '" + out.options.scale_rule + "': accepted are offsets and replicate";
    else if (out.error.empty() && !out.help && !out.options.scale_text.empty()) {
        const std::string& t = out.options.scale_text;
        const bool digits = t.size() <= 8 && t.find_first_not_of("0123456789") == std::string::npos;
        const unsigned long n = digits ? std::stoul(t) : 0;
        if (n < 1 || n > kMaxScale)
            out.error = "--scale '" + t + "': accepted is a number of ranks from 1 to " + std::to_string(kMaxScale);
        else
            out.options.scale = static_cast<std::uint32_t>(n);
    }
    return out;
}

int run_trace(const std::vector<std::string>& args) {
    auto parsed = parse_trace_options(args);
    const std::string who = "jobsentry trace";
    TraceOptions defaults;
    std::ostringstream help;
    help << "Usage: jobsentry trace [options] -- mpirun -np N ./app [args]\n\n"
         << "Runs the command with the tracer preloaded into its ranks: each rank writes its point-to-point\n"
         << "and collective calls and the time between them to DIR/rank-N.jstrace; then\n"
         << "`jobsentry trace-to-goal DIR` makes a GOAL schedule of them. Exit status: the command's, or 1\n"
         << "when it succeeded but no rank wrote a trace.\n\n"
         << trace_spec(&defaults);
    if (auto status = answered(parsed.help, parsed.error, [&] { return help.str(); }, who)) return *status;
    const TraceOptions& o = parsed.options;
    const MpiFlavor mpi = choose_mpi(o.mpi, o.command, who, "tracing");
    const std::string module = find_module(mpi, "jobsentry-trace", "JOBSENTRY_TRACE_LIB", who);
    if (module.empty()) return 2;
    const std::string dir = prepare_trace_dir(o.trace_dir, ".jstrace", who);
    if (dir.empty()) return 2;
    const std::optional<int> status = run_preloaded(o.command, module, {{"JOBSENTRY_TRACE_DIR", dir}}, who);
    if (!status) return 127;
    const auto files = jobtrace::trace_files(dir);
    Logger("trace").info(std::to_string(files.size()) + (files.size() == 1 ? " rank's trace" : " ranks' traces") +
                         " in " + dir + "; jobsentry trace-to-goal " + dir + " -o app.goal");
    return files.empty() && *status == 0 ? 1 : *status;
}

int run_trace_to_goal(const std::vector<std::string>& args) {
    auto parsed = parse_trace_to_goal_options(args);
    const std::string who = "jobsentry trace-to-goal";
    TraceToGoalOptions defaults;
    std::ostringstream help;
    help << "Usage: jobsentry trace-to-goal DIR [-o app.goal] [--scale P [--scale-rule offsets|replicate]]\n\n"
         << "Writes the traces of `jobsentry trace` as a GOAL schedule for `jobsentry simulate --goal`\n"
         << "(collective algorithms: docs/simulator.md). A rank whose trace is unreadable is left out, with\n"
         << "its file, offset and what was expected on stderr and in a comment of the GOAL. Exit status: 0,\n"
         << kRanksLeftOut << " when ranks were left out, 2 when nothing could be converted.\n\n"
         << to_goal_spec(&defaults);
    if (auto status = answered(parsed.help, parsed.error, [&] { return help.str(); }, who)) return *status;
    const TraceToGoalOptions& o = parsed.options;
    std::map<std::uint32_t, std::string> files;
    try {
        files = jobtrace::trace_files(o.trace_dir);
    } catch (const jobtrace::TraceError& e) {
        std::cerr << who << ": " << e.what() << '\n';
        return 2;
    }
    std::vector<jobtrace::RankTrace> traces;
    std::map<std::uint32_t, std::string> left_out;
    std::uint32_t world = files.empty() ? 0 : files.rbegin()->first + 1;
    for (const auto& [rank, path] : files) {
        try {
            traces.push_back(jobtrace::read_rank_trace(path));
            world = std::max(world, traces.back().world_size);
        } catch (const jobtrace::TraceError& e) {
            std::cerr << who << ": " << e.what() << "; rank " << rank << " is left out\n";
            left_out[rank] = e.what();
        }
    }
    if (traces.empty()) {
        std::cerr << who << ": no readable rank-N.jstrace in " << o.trace_dir << '\n';
        return 2;
    }
    const jobtrace::Allreduce allreduce = *allreduce_algorithm(o.allreduce);
    jobtrace::Conversion c;
    std::string scaled;
    if (!o.scale) {
        c = jobtrace::goal_from_traces(traces, world, left_out, allreduce);
    } else {
        if (!left_out.empty()) {
            std::cerr << who << ": --scale needs the trace of every rank; " << left_out.size()
                      << (left_out.size() == 1 ? " rank was" : " ranks were") << " left out (above)\n";
            return 2;
        }
        try {
            const jobtrace::Extrapolation x(traces, o.scale,
                                            o.scale_rule == "replicate" ? jobtrace::ScaleRule::replicate
                                                                        : jobtrace::ScaleRule::offsets);
            c = jobtrace::goal_from_rank_source(
                x.size(), x.records(), [&](std::uint32_t r) { return x.rank(r); }, allreduce);
            c.traced_ns = jobtrace::traced_region_ns(traces);  // the time measured at the traced scale
            scaled = "// extrapolated from " + std::to_string(world) + " to " + std::to_string(o.scale) + " ranks (--scale-rule " +
                     o.scale_rule + "): " + x.how() + "\n";
            world = o.scale;
        } catch (const jobtrace::ExtrapolationError& e) {
            std::cerr << who << ": cannot extrapolate to " << o.scale << " ranks: " << e.what() << '\n';
            return 2;
        }
    }
    std::ostringstream text;
    text << "// GOAL schedule of the traces in " << o.trace_dir << " (jobsentry trace-to-goal --allreduce "
         << o.allreduce << "): " << world << " ranks, calc in ns\n"
         << scaled
         << "// traced region: " << c.traced_ns << " ns (the longest rank, from its first MPI call to its last"
         << (scaled.empty() ? "" : ", as traced") << ")\n";
    for (const std::string& note : c.notes) text << "// " << note << '\n';
    jobsentry::sim::write_goal(c.schedule, text);
    if (o.output.empty() || o.output == "-") {
        std::cout << text.str();
    } else {
        std::ofstream out(o.output);
        out << text.str();
        if (!out) {
            std::cerr << who << ": cannot write " << o.output << '\n';
            return 2;
        }
    }
    for (const std::string& note : c.notes) std::cerr << who << ": note: " << note << '\n';
    return left_out.empty() ? 0 : kRanksLeftOut;
}

}  // namespace jobsentry
