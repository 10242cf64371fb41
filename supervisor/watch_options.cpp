#include "watch_options.h"

#include <boost/program_options.hpp>

#include <sstream>

namespace po = boost::program_options;

namespace jobsentry {
namespace {

po::options_description describe(WatchOptions& o, std::string& action) {
    po::options_description d("Options");
    // clang-format off
    d.add_options()
        ("help,h", "print this help and exit")
        ("alpha", po::value(&o.alpha)->default_value(o.alpha),
            "significance level: claim a hang when q^k <= alpha; 0 < alpha < 0.5")
        ("interval-ms", po::value(&o.interval_ms)->default_value(o.interval_ms),
            "initial sampling interval I in ms (pauses are rand(I) + I/2); 10..60000")
        ("max-interval-ms", po::value(&o.max_interval_ms)->default_value(o.max_interval_ms),
            "cap for the doublings of I when samples are not random; >= interval-ms, <= 600000")
        ("ranks", po::value(&o.ranks)->default_value(o.ranks),
            "number of ranks monitored, chosen at random; 1..4096")
        ("action", po::value(&action)->default_value("kill"),
            "on a verified hang: kill (terminate the command tree, exit 3) or report (report only)")
        ("report", po::value(&o.report)->default_value(o.report),
            "JSON report path; the text form goes next to it with .txt")
        ("verbose,v", po::bool_switch(&o.verbose), "print every sample and judgement on stderr")
        ("seed", po::value(&o.seed)->default_value(o.seed), "random seed; 0 takes one from the clock")
        ("grace-ms", po::value(&o.grace_ms)->default_value(o.grace_ms),
            "time between SIGTERM and SIGKILL when killing; 0..600000")
        ("verify-rounds", po::value(&o.verify_rounds)->default_value(o.verify_rounds),
            "fresh samples of every rank taken to verify a hang; 2..50")
        ("spin-verify-ms", po::value(&o.spin_verify_ms)->default_value(o.spin_verify_ms),
            "then, for suspects computing outside MPI, how long to watch them every 100 ms for a change of "
            "function before calling it a hang; 0..60000");
    // clang-format on
    return d;
}

std::string check(const WatchOptions& o, const std::string& action) {
    std::ostringstream e;
    if (!(o.alpha > 0 && o.alpha < 0.5)) e << "--alpha " << o.alpha << ": accepted values are 0 < alpha < 0.5";
    else if (o.interval_ms < 10 || o.interval_ms > 60000)
        e << "--interval-ms " << o.interval_ms << ": accepted values are 10..60000";
    else if (o.max_interval_ms < o.interval_ms || o.max_interval_ms > 600000)
        e << "--max-interval-ms " << o.max_interval_ms << ": accepted values are interval-ms..600000";
    else if (o.ranks < 1 || o.ranks > 4096) e << "--ranks " << o.ranks << ": accepted values are 1..4096";
    else if (action != "kill" && action != "report")
        e << "--action " << action << ": accepted values are kill, report";
    else if (o.report.empty()) e << "--report: needs a file name";
    else if (o.grace_ms < 0 || o.grace_ms > 600000) e << "--grace-ms " << o.grace_ms << ": accepted values are 0..600000";
    else if (o.verify_rounds < 2 || o.verify_rounds > 50)
        e << "--verify-rounds " << o.verify_rounds << ": accepted values are 2..50";
    else if (o.spin_verify_ms < 0 || o.spin_verify_ms > 60000)
        e << "--spin-verify-ms " << o.spin_verify_ms << ": accepted values are 0..60000";
    else if (o.command.empty()) e << "no COMMAND given: usage is jobsentry watch [options] -- COMMAND [ARGS...]";
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

    try {
        po::variables_map vm;
        // No guessing of abbreviated names: --alp must not silently mean --alpha.
        const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
        po::store(po::command_line_parser(mine).options(desc).style(style).run(), vm);
        po::notify(vm);
        if (vm.count("help")) {
            out.help = true;
            return out;
        }
    } catch (const po::validation_error& err) {
        // Boost names the option but not what it accepts: add that from the table.
        std::string name = err.get_option_name();
        while (!name.empty() && name[0] == '-') name.erase(0, 1);
        const po::option_description* known = desc.find_nothrow(name, false);
        out.error = std::string(err.what()) + (known ? "; accepted: " + known->description() : std::string());
        return out;
    } catch (const po::error& err) {
        out.error = std::string(err.what()) + " (see jobsentry watch --help)";
        return out;
    }
    out.options.action = action == "report" ? HangAction::report : HangAction::kill;
    out.error = check(out.options, action);
    return out;
}

std::string watch_help() {
    WatchOptions defaults;
    std::string action;
    std::ostringstream out;
    out << "Usage: jobsentry watch [options] [--] COMMAND [ARGS...]\n\n"
           "Runs COMMAND (typically mpirun ...), samples the stacks of its MPI ranks at random\n"
           "moments and, when the ParaStack model and a verification agree that the job hangs,\n"
           "writes a report and acts. Exit status: COMMAND's own when no hang was found, 3 when a\n"
           "hang was detected, 2 for bad options, 127 when COMMAND cannot be run.\n\n"
        << describe(defaults, action);
    return out.str();
}

}  // namespace jobsentry
