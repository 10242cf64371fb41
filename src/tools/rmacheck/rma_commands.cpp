// The two rmacheck subcommands (see rma_commands.h). One options table per
// command drives parsing and --help.
#include "tools/rmacheck/rma_commands.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <algorithm>
#include <optional>

#include <boost/program_options.hpp>

#include "tools/rmacheck/sampling.h"

#include "tools/mpiwrap/preload_launch.h"
#include "tools/mpiwrap/program_mpi.h"
#include "tools/rmacheck/analysis/report.h"
#include "tools/rmacheck/openmp/libgomp_swap.h"
#include "base/command_line.h"
#include "base/log.h"

namespace po = boost::program_options;

namespace jobsentry {

namespace {

po::options_description check_spec(RmaCheckOptions* o) {
    po::options_description desc("Options of jobsentry rma-check");
    desc.add_options()("help,h", "print this help")(
        "precise", po::bool_switch(&o->precise),
        "precise mode: the program was compiled with jobsentry-mpicc, so every load and store of window memory "
        "and origin buffers is seen (default: mode 1, page protection of origin buffers and of allocated windows at "
        "the target, no recompiling)")(
        "check-all", po::bool_switch(&o->check_all),
        ("mode 1: watch the origin buffers of every RMA operation and the window memory at the target in every "
         "span between synchronisations (default: " + rmacheck::sampling_rule() +
         ", and each window in its first 64 spans, then fewer and fewer, which the report states; conflicts "
         "between RMA operations are always checked in full)")
            .c_str())(
        "report", po::value(&o->report), "also write the findings as JSON to this file")(
        "trace-dir", po::value(&o->trace_dir)->default_value(o->trace_dir),
        "directory for the per-rank traces (created; old rank-*.jsrma files in it are removed)")(
        "mpi", po::value(&o->mpi)->default_value(o->mpi),
        "the program's MPI, which picks the preload module: openmpi, mpich, or auto (the first file of the "
        "command linked with an MPI library, else the launcher's name; Open MPI when neither says)");
    return desc;
}

void print_analysis(const rmacheck::Analysis& a, std::ostream& out, const Logger& log) {
    for (const auto& e : a.errors) log.error(e);
    for (const auto& w : a.warnings) log.warning(w);
    for (const auto& n : a.notes) out << "NOTE " << n << '\n';
    for (size_t i = 0; i < a.findings.size(); ++i) {
        out << rmacheck::format_finding(a.findings[i], a.places[i].first, a.places[i].second) << '\n';
        std::string rule = rmacheck::explain_finding(a.findings[i]);
        if (!rule.empty()) out << "  " << rule << '\n';
    }
    out << a.findings.size() << (a.findings.size() == 1 ? " race" : " races") << " found in " << a.traces.size()
        << (a.traces.size() == 1 ? " rank's trace" : " ranks' traces") << '\n';
}

bool write_report(const rmacheck::Analysis& a, const std::string& file, const char* who) {
    if (file.empty()) return true;
    std::ofstream out(file);
    out << rmacheck::to_json(a).dump(2) << '\n';
    if (!out) {
        std::cerr << who << ": cannot write the report " << file << '\n';
        return false;
    }
    return true;
}

}  // namespace

RmaCheckParse parse_rma_check_options(const std::vector<std::string>& args) {
    RmaCheckParse out;
    auto dash = std::find(args.begin(), args.end(), "--");
    std::vector<std::string> opts(args.begin(), dash);
    if (dash != args.end()) out.options.command.assign(dash + 1, args.end());
    po::options_description desc = check_spec(&out.options);
    out.error = parse_with(desc, opts, &out.help, "jobsentry rma-check --help");
    if (out.help || !out.error.empty()) return out;
    if (out.options.command.empty())
        out.error = "no program given; usage: jobsentry rma-check [options] -- mpirun -np 4 ./app";
    else if (out.options.mpi != "auto" && !parse_mpi_flavor(out.options.mpi))
        out.error = "--mpi '" + out.options.mpi + "': accepted are auto, openmpi and mpich";
    else if (out.options.precise && out.options.check_all)
        out.error = "--check-all is mode 1's (it turns off sampling of origin buffers and of spans at the target); --precise (mode 2) "
                    "checks every access already: give one of them";
    else if (out.options.trace_dir.empty())
        out.error = "--trace-dir must not be empty";
    return out;
}

std::string rma_check_help() {
    RmaCheckOptions o;
    std::ostringstream text;
    text << "Usage: jobsentry rma-check [options] -- mpirun -np N ./app [args]\n\n"
         << "Runs the command with the MPI RMA checker preloaded into its ranks, then reports every pair of\n"
         << "conflicting concurrent accesses. Exit status: the command's, or " << kRacesFound
         << " when it succeeded but races were found, or 1 when it succeeded but no rank wrote a trace\n"
         << "(nothing was checked: e.g. --mpi named another MPI than the program's).\n\n"
         << check_spec(&o);
    return text.str();
}

int run_rma_check(const std::vector<std::string>& args) {
    RmaCheckParse parsed = parse_rma_check_options(args);
    if (auto status = answered(parsed.help, parsed.error, rma_check_help, "jobsentry rma-check")) return *status;
    const RmaCheckOptions& o = parsed.options;
    const MpiFlavor mpi = choose_mpi(o.mpi, o.command, "jobsentry rma-check", "checking");
    const std::string preload = find_module(mpi, "jobsentry-rmacheck", "JOBSENTRY_RMACHECK_LIB", "jobsentry rma-check");
    if (preload.empty()) return 2;
    const std::string dir = prepare_trace_dir(o.trace_dir, ".jsrma", "jobsentry rma-check");
    if (dir.empty()) return 2;
    std::vector<std::pair<std::string, std::string>> environment{
        {"JOBSENTRY_RMA_TRACE_DIR", dir},
        {"JOBSENTRY_RMA_MODE", o.precise ? "precise" : "protect"},
        {"JOBSENTRY_RMA_SAMPLING", o.check_all ? "off" : "on"}};
    // Mode 1 of a GCC -fopenmp program: LLVM libomp in libgomp's place, for OMPT (precise mode's
    // programs are built by clang with libomp already), under both MPIs.
    rmacheck::openmp::LibgompSwap swap;
    if (!o.precise)
        swap = rmacheck::openmp::prepare_libgomp_swap(o.command, dir, "jobsentry rma-check");
    environment.insert(environment.end(), swap.environment.begin(), swap.environment.end());
    const std::string fortran = detect_fortran_mpi(o.command);
    if (!fortran.empty())
        std::cerr << "jobsentry rma-check: " << fortran << ": its calls through include 'mpif.h', use mpi "
                  << "and use mpi_f08 are checked (gfortran's names: mpi_put_, mpi_put_f08_, ...; "
                  << "docs/rmacheck.md, \"Fortran\")\n";
    const std::optional<int> ran = run_preloaded(o.command, preload, environment, "jobsentry rma-check");
    rmacheck::openmp::remove_libgomp_swap(swap);
    if (!ran) return 127;
    const int status = *ran;
    rmacheck::Analysis a = rmacheck::analyse_dir(dir);
    const Logger log("rma-check");
    log.info("traces in " + dir);
    print_analysis(a, std::cerr, log);
    if (!write_report(a, o.report, "jobsentry rma-check")) return status ? status : 1;
    // No rank wrote a trace (a program of another MPI, one that never called
    // MPI_Init, ...): nothing was checked, which must not read as "no race".
    if (a.traces.empty()) {
        if (!fortran.empty())
            log.error("no rank wrote a trace: " + fortran + ", and no rank's MPI_Init was seen (a Fortran "
                      "compiler with other names than gfortran's? docs/rmacheck.md, \"Fortran\")");
        return status ? status : 1;
    }
    if (status == 0 && !a.findings.empty()) return kRacesFound;
    return status;
}

int run_rma_report(const std::vector<std::string>& args) {
    std::string dir, report;
    po::options_description desc("Options of jobsentry rma-report");
    desc.add_options()("help,h", "print this help")("report", po::value(&report),
                                                    "also write the findings as JSON to this file")(
        "trace-dir", po::value(&dir)->required(), "directory of rank-N.jsrma traces (also the positional argument)");
    po::positional_options_description pos;
    pos.add("trace-dir", 1);
    bool help = false;
    const std::string error = parse_with(desc, args, &help, "jobsentry rma-report --help", &pos);
    const auto help_text = [&] {
        std::ostringstream text;
        text << "Usage: jobsentry rma-report [--report FILE.json] TRACE_DIR\n\n"
             << "Analyses the traces of a run of the RMA checker. Exit status: 0 no races, " << kRacesFound
             << " races found, 1 no usable trace.\n\n"
             << desc;
        return text.str();
    };
    if (auto status = answered(help, error, help_text, "jobsentry rma-report")) return *status;
    if (!std::filesystem::is_directory(dir)) {
        std::cerr << "jobsentry rma-report: " << dir << " is not a directory; give the --trace-dir of a "
                  << "jobsentry rma-check run\n";
        return 2;
    }
    rmacheck::Analysis a = rmacheck::analyse_dir(dir);
    print_analysis(a, std::cout, Logger("rma-report"));
    if (!write_report(a, report, "jobsentry rma-report")) return 1;
    if (!a.findings.empty()) return kRacesFound;
    return a.traces.empty() ? 1 : 0;
}

}  // namespace jobsentry
