// jobsentry: command-line entry point. Subcommands:
//   watch   run a command and detect hangs of its MPI ranks (watch_options.h)
//   sample  take stack samples of one process and print them with their cost
//   noise   measure OS noise per PU (tools/noise/noise_command.h)
//   noise-job  a Slurm job's noise probe at job start (noise_job.h)
//   ckpt    Young/Daly checkpoint advice (tools/checkpoint/ckpt_command.h)
//   rma-check, rma-report  MPI RMA memory-consistency checker (tools/rmacheck/rma_commands.h)
//   trace, trace-to-goal   trace an MPI job's messages, make a GOAL schedule of them (tracer/)
//   simulate  LogGOPS simulation of a collective under OS noise (simulator/)
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "base/version.h"
#include "cli/options_command.h"
#include "cli/sample_command.h"
#include "slurm/node_agent.h"
#include "tools/checkpoint/ckpt_command.h"
#include "slurm/noise_job.h"
#include "slurm/rma_job.h"
#include "hang/watch/report.h"
#include "slurm/root_environment.h"
#include "tools/simulator/simulate_cli.h"
#include "tools/loggp/loggp_command.h"
#include "hang/watch/watch_options.h"
#include "hang/watch/command_job.h"
#include "tools/noise/noise_command.h"
#include "slurm/slurm_job.h"
#include "slurm/supervise_options.h"
#include "hang/watch/watcher.h"
#include "tools/rmacheck/rma_commands.h"
#include "tools/tracer/trace_commands.h"
#include "base/command_line.h"

namespace po = boost::program_options;
using namespace jobsentry;

namespace {

int run_watch(const std::vector<std::string>& args) {
    WatchParse parsed = parse_watch_options(args);
    if (auto status = answered(parsed.help, parsed.error, watch_help, "jobsentry watch")) return *status;
    CommandJob job(parsed.options);
    return run_watcher(parsed.options, job);
}

int run_supervise(const std::vector<std::string>& args) {
    SuperviseParse parsed = parse_supervise_options(args);
    if (auto status = answered(parsed.help, parsed.error, supervise_help, "jobsentry supervise")) return *status;
    SlurmJob job(parsed.options);
    int status = run_watcher(parsed.options, job);
    return status == 127 ? 1 : status;
}

int run_agent(const std::vector<std::string>& args) {
    AgentParse parsed = parse_agent_options(args);
    if (auto status = answered(parsed.help, parsed.error, agent_help, "jobsentry agent")) return *status;
    return run_node_agent(parsed.options);
}

// One row per subcommand: the usage text and the dispatch come from this table.
struct Command {
    const char* name;
    const char* synopsis;  // shown after the name in the usage text
    int (*run)(const std::vector<std::string>& args);
    // Run as root by jobsentry.so on behalf of a job: the environment is
    // reduced to root_environment() first (root_environment.h).
    bool for_a_job = false;
};

const Command kCommands[] = {
    {"watch", "[options] [--] CMD...   run CMD and detect hangs of its MPI ranks", run_watch},
    {"supervise", "--job-id ID [opts]  watch a Slurm job on this node (started by jobsentry.so)", run_supervise, true},
    {"agent", "--job-id ID --node-index K  a multi-node job's node agent (started by jobsentry.so)", run_agent, true},
    {"sample", "[options] PID          stack samples of one process, with their cost", run_sample},
    {"noise", "[options]               OS noise per PU (selfish detour, pinned with hwloc)", run_noise},
    {"noise-job", "--job-id ID [opts]  a Slurm job's noise probe at its start (run by jobsentry.so)", run_noise_job, true},
    {"rma-job", "--job-id ID [opts]    a Slurm job's RMA traces analysed at its end (run by jobsentry.so)", run_rma_job, true},
    {"ckpt", "advise|mtbf [options]    Young/Daly checkpoint periods; per-node MTBF", jobsentry::ckpt::run_ckpt},
    {"rma-check", "[options] -- CMD... run an MPI program and check its one-sided (RMA) accesses", run_rma_check},
    {"rma-report", "TRACE_DIR          analyse the traces of an rma-check run", run_rma_report},
    {"trace", "[options] -- CMD...     record an MPI program's messages and compute times, one file per rank",
     run_trace},
    {"trace-to-goal", "DIR [-o FILE]   write the traces of jobsentry trace as a GOAL schedule", run_trace_to_goal},
    {"simulate", "[options]            predict a collective's slowdown under a noise trace (LogGOPS)", run_simulate},
    {"loggp", "[options]               measure L, o, g, G, O between two ranks (runs mpirun -np 2)", run_loggp},
    {"options", "[TABLE]               the hang detector's options from their one spec, as markdown", run_options},
};

// The one front of every subcommand. Exit status: 0 success; 1 the command
// failed (what failed is on stderr); 2 the command line was wrong (the message
// names the option and what it accepts); 3 watch and supervise found a hang;
// 127 the watched command could not be started; otherwise the watched
// command's own status. A command's usage errors are printed as
// "jobsentry COMMAND: ..."; an exception that escapes a command is reported
// the same way and exits 1 instead of aborting (docs/architecture.md, "One front").
int run_command(const Command& c, const std::vector<std::string>& args) {
    try {
        return c.run(args);
    } catch (const po::error& e) {
        std::cerr << "jobsentry " << c.name << ": " << e.what() << " (see jobsentry " << c.name << " --help)\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "jobsentry " << c.name << ": error: " << e.what() << '\n';
        return 1;
    }
}

std::string usage() {
    std::string text = "Usage: jobsentry COMMAND [options]\n\nCommands:\n";
    for (const auto& c : kCommands) text += std::string("  ") + c.name + " " + c.synopsis + "\n";
    return text + "\nRun 'jobsentry COMMAND --help' for the options of each command, 'jobsentry --version' for the build.\n";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << usage();
        return 2;
    }
    std::string command = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << usage();
        return 0;
    }
    if (command == "--version" || command == "version") {
        std::cout << version_line() << '\n';
        return 0;
    }
    std::string names;
    for (const auto& c : kCommands) {
        if (command != c.name) {
            names += std::string(names.empty() ? "" : ", ") + c.name;
            continue;
        }
        if (c.for_a_job) enter_root_environment();
        return run_command(c, args);
    }
    std::cerr << "jobsentry: unknown command '" << command << "'; accepted commands are " << names << "\n\n"
              << usage();
    return 2;
}
