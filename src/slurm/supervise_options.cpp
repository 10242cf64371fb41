#include "slurm/supervise_options.h"

#include <sstream>

#include "hang/watch/detection_options.h"
#include "base/duration.h"

namespace po = boost::program_options;

namespace jobsentry {
namespace {

po::options_description describe(SuperviseOptions& o, std::string& action, std::string& mtbf, std::string& cost,
                                 bool& no_detect, std::string& ports, std::string& slow_action) {
    po::options_description d("Options");
    d.add_options()("help,h", "print this help and exit");
    // clang-format off
    d.add_options()
        ("job-id", po::value(&o.job_id)->required(), "the Slurm job to watch on this node")
        ("action", po::value(&action)->default_value("cancel"),
            "on a verified hang: cancel, requeue, notify (signal the batch shell, or a message to srun) or "
            "report (report and annotate only)")
        ("report-dir", po::value(&o.report_dir),
            "directory for the reports, written as the job's user; default: the job's working directory")
        ("pid-file", po::value(&o.pid_file), "the plugin's record of this supervisor, removed at exit")
        ("cgroup-root", po::value(&o.cgroup_root)->default_value(o.cgroup_root), "where cgroups are mounted")
        ("leader-ports", po::value(&ports)->default_value(to_string(o.leader_ports)),
            "multi-node jobs: TCP ports FIRST-LAST on which to listen for the node agents (docs/multi-node.md)")
        ("fan-in", po::value(&o.fan_in)->default_value(o.fan_in),
            "multi-node jobs: at most F node agents connect here, the others through them (a tree of agents; "
            "the agents' --fan-in must be the same)")
        ("notify-signal", po::value(&o.notify_signal)->default_value(o.notify_signal),
            "signal sent to the batch shell by action notify; 1..64")
        ("ckpt-signal", po::value(&o.ckpt_signal)->default_value(o.ckpt_signal),
            "checkpoint signal sent to the batch shell at the Young/Daly period (needs --mtbf); 0: none; 1..64")
        ("mtbf", po::value(&mtbf), "per-node MTBF, a duration with a unit (24h); λ = nodes / MTBF")
        ("nodes", po::value(&o.nodes)->default_value(o.nodes), "nodes of the job for λ; 0: the job's own count")
        ("ckpt-cost", po::value(&cost)->default_value(format_ms(static_cast<int>(o.ckpt_cost_s * 1000))), "C, the time one checkpoint takes (a guess)")
        ("slow-action", po::value(&slow_action)->default_value("report"),
            "on a slow verdict: report (report, log and AdminComment), notify (also the notify signal to the batch "
            "shell, once), drain (also set the node(s) it names DRAIN, the reason naming the job; the job runs on) or "
            "requeue_exclude (drain, and requeue the job without them where --slow-requeue and a checkpoint signal was sent)")
        ("slow-requeue", po::bool_switch(&o.slow_requeue),
            "the job consents to being requeued without a slow node (--hang-detect=slow_requeue=yes)")
        ("no-hang-detect", po::bool_switch(&no_detect),
            "no hang detection: run only for the checkpoint signal (the job asked for --checkpoint alone)");
    // clang-format on
    add_detection_options(d, o);
    return d;
}

}  // namespace

SuperviseParse parse_supervise_options(const std::vector<std::string>& args) {
    SuperviseParse out;
    std::string action, mtbf, cost, ports, slow_action;
    bool no_detect = false;
    po::options_description desc = describe(out.options, action, mtbf, cost, no_detect, ports, slow_action);
    out.error = parse_with(desc, args, &out.help, "jobsentry supervise --help");
    if (out.help || !out.error.empty()) return out;
    const bool known = parse_action(action, &out.options.action);
    std::ostringstream e;
    std::string detection = check_detection_settings(out.options);
    if (!detection.empty()) e << detection;
    else if (!known) e << "--action " << action << ": accepted values are cancel, requeue, notify, report";
    else if (!parse_slow_action(slow_action, &out.options.slow_action))
        e << "--slow-action " << slow_action << ": accepted values are " << slow_action_names();
    else if (out.options.job_id == 0) e << "--job-id 0: accepted values are Slurm job ids (> 0)";
    else if (!out.options.report_dir.empty() && out.options.report_dir[0] != '/')
        e << "--report-dir " << out.options.report_dir << ": accepted values are absolute paths";
    else if (out.options.notify_signal < 1 || out.options.notify_signal > 64)
        e << "--notify-signal " << out.options.notify_signal << ": accepted values are 1..64";
    else if (out.options.ckpt_signal < 0 || out.options.ckpt_signal > 64)
        e << "--ckpt-signal " << out.options.ckpt_signal << ": accepted values are 0 (none) or 1..64";
    else if (!mtbf.empty() && !((out.options.mtbf_s = parse_duration_seconds(mtbf)) > 0))
        e << "--mtbf " << mtbf << ": accepted values are positive durations with a unit ms, s, m, h or d, e.g. 24h";
    else if (!((out.options.ckpt_cost_s = parse_duration_seconds(cost)) > 0))
        e << "--ckpt-cost " << cost << ": accepted values are positive durations with a unit ms, s, m, h or d, e.g. 90s";
    else if (out.options.ckpt_signal > 0 && !(out.options.mtbf_s > 0))
        e << "--ckpt-signal " << out.options.ckpt_signal << " needs --mtbf (there is no period without it)";
    else if (out.options.fan_in < 1 || out.options.fan_in > NodeTree::kMaxFanIn)
        e << "--fan-in " << out.options.fan_in << ": accepted values are 1 to " << NodeTree::kMaxFanIn;
    else if (auto range = parse_port_range(ports); !range)
        e << "--leader-ports " << ports << ": accepted values are port ranges FIRST-LAST within 1024-65535";
    else if (out.options.leader_ports = *range; no_detect && out.options.ckpt_signal == 0)
        e << "--no-hang-detect without --ckpt-signal: the supervisor would have nothing to do";
    out.options.detect = !no_detect;
    out.error = e.str();
    return out;
}

std::string supervise_help() {
    SuperviseOptions defaults;
    std::string action, mtbf, cost, ports, slow_action;
    bool no_detect = false;
    std::ostringstream out;
    out << "Usage: jobsentry supervise --job-id ID [options]\n\n"
           "The per-job supervisor that jobsentry.so starts as root on a job's node: finds the job's\n"
           "ranks by its cgroup (processes of the job's user only), detects hangs like `jobsentry\n"
           "watch`, and on a verified hang writes the report as the job's user, sets the job's\n"
           "AdminComment and acts. Ends with the job. Exit status: 0, 3 after a hang, 2 for bad\n"
           "options, 1 when the job cannot be watched.\n\n"
        << describe(defaults, action, mtbf, cost, no_detect, ports, slow_action);
    return out.str();
}

}  // namespace jobsentry
