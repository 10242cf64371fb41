#include "hang/watch/watch_options.h"

#include "hang/watch/detection_options.h"

#include <boost/program_options.hpp>

#include <sstream>

namespace po = boost::program_options;

namespace jobsentry {
namespace {

po::options_description describe(WatchOptions& o, std::string& action) {
    po::options_description d("Options");
    d.add_options()("help,h", "print this help and exit");
    add_detection_options(d, o);
    // clang-format off
    d.add_options()
        ("action", po::value(&action)->default_value("kill"),
            "on a verified hang: kill (terminate the command tree, exit 3) or report (report only)")
        ("report", po::value(&o.report)->default_value(o.report),
            "JSON report path; the text form goes next to it with .txt")
        ("grace-ms", po::value(&o.grace_ms)->default_value(o.grace_ms),
            "time between SIGTERM and SIGKILL when killing; 0..600000")
        ("attach", po::value(&o.attach)->default_value(o.attach),
            "watch the running process PID (e.g. an mpirun started elsewhere) and its descendants instead of "
            "launching COMMAND; the supervisor is then a separate process, as under Slurm. 0: launch COMMAND");
    // clang-format on
    return d;
}

std::string check(const WatchOptions& o, const std::string& action) {
    std::ostringstream e;
    std::string detection = check_detection_settings(o);
    if (!detection.empty()) e << detection;
    else if (action != "kill" && action != "report")
        e << "--action " << action << ": accepted values are kill, report";
    else if (o.report.empty()) e << "--report: needs a file name";
    else if (o.grace_ms < 0 || o.grace_ms > 600000) e << "--grace-ms " << o.grace_ms << ": accepted values are 0..600000";
    else if (o.attach < 0 || o.attach > 4194304) e << "--attach " << o.attach << ": accepted values are 1..4194304 (a pid)";
    else if (o.attach > 0 && !o.command.empty()) e << "--attach and a COMMAND: give one of them, not both";
    else if (o.attach == 0 && o.command.empty())
        e << "no COMMAND given: usage is jobsentry watch [options] -- COMMAND [ARGS...] (or --attach PID)";
    return e.str();
}

}  // namespace

WatchParse parse_watch_options(const std::vector<std::string>& args) {
    WatchParse out;
    std::string action;
    po::options_description desc = describe(out.options, action);

    // Options end at "--" or at the first word that is neither an option nor
    // an option's value, so that `watch mpirun -np 4 ./app` works as well.
    std::vector<std::string> mine;
    size_t i = 0;
    for (; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--") {
            ++i;
            break;
        }
        if (a.size() < 2 || a[0] != '-') break;
        mine.push_back(a);
        if (a.rfind("--", 0) == 0 && a.find('=') == std::string::npos) {
            const po::option_description* known = desc.find_nothrow(a.substr(2), false);
            if (known && known->semantic()->max_tokens() > 0 && i + 1 < args.size()) mine.push_back(args[++i]);
        }
    }
    out.options.command.assign(args.begin() + static_cast<long>(i), args.end());

    out.error = parse_with(desc, mine, &out.help, "jobsentry watch --help");
    if (out.help || !out.error.empty()) return out;
    out.options.action = action == "report" ? HangAction::report : HangAction::kill;
    out.error = check(out.options, action);
    return out;
}

std::string watch_help() {
    WatchOptions defaults;
    std::string action;
    std::ostringstream out;
    out << "Usage: jobsentry watch [options] [--] COMMAND [ARGS...]\n"
           "       jobsentry watch [options] --attach PID\n\n"
           "Runs COMMAND (typically mpirun ...), samples the stacks of its MPI ranks at random\n"
           "moments and, when the ParaStack model and a verification agree that the job hangs,\n"
           "writes a report and acts. Exit status: COMMAND's own when no hang was found, 3 when a\n"
           "hang was detected, 2 for bad options, 127 when COMMAND cannot be run.\n\n"
        << describe(defaults, action);
    return out.str();
}

}  // namespace jobsentry
