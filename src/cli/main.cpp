// jobsentry: command-line entry point. Subcommands:
//   watch   run a command and detect hangs of its MPI ranks (watch_options.h)
//   sample  take stack samples of one process and print them with their cost
//   noise   measure OS noise per PU (tools/noise/noise_command.h)
//   noise-job  a Slurm job's noise probe at job start (noise_job.h)
//   ckpt    Young/Daly checkpoint advice (tools/checkpoint/ckpt_command.h)
//   rma-check, rma-report  MPI RMA memory-consistency checker (tools/rmacheck/rma_commands.h)
//   trace, trace-to-goal   trace an MPI job's messages, make a GOAL schedule of them (tracer/)
//   simulate  LogGOPS simulation of a collective under OS noise (simulator/)
#include <algorithm>
#include <cstring>
#include <map>
#include <unistd.h>
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "base/version.h"
#include "cli/options_command.h"
#include "slurm/node_agent.h"
#include "tools/checkpoint/ckpt_command.h"
#include "slurm/noise_job.h"
#include "slurm/rma_job.h"
#include "hang/watch/report.h"
#include "slurm/root_environment.h"
#include "tools/simulator/simulate_cli.h"
#include "tools/loggp/loggp_command.h"
#include "hang/sampler/stack_walker.h"
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

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    size_t index = static_cast<size_t>(p * (values.size() - 1) + 0.5);
    return values[index];
}

int run_sample(const std::vector<std::string>& args) {
    int count = 1;
    int pause_ms = 10;
    bool chains = false;
    long pid = 0;
    po::options_description desc("Options of jobsentry sample");
    desc.add_options()("help,h", "print this help")(
        "count", po::value(&count)->default_value(1), "number of samples, 1..100000; with more than one, "
                                                      "only the cost statistics and the last stack are printed")(
        "pause-ms", po::value(&pause_ms)->default_value(10), "pause between samples in ms, 0..10000")(
        "chains", po::bool_switch(&chains), "count the distinct function-level call chains seen")(
        "pid", po::value(&pid)->required(), "process to sample (also the first positional argument)");
    po::positional_options_description pos;
    pos.add("pid", 1);
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(args).options(desc).positional(pos).style(command_line_style()).run(), vm);
        if (vm.count("help")) {
            std::cout << "Usage: jobsentry sample [options] PID\n\n" << desc;
            return 0;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "jobsentry sample: " << e.what() << " (see jobsentry sample --help)\n";
        return 2;
    }
    if (count < 1 || count > 100000 || pause_ms < 0 || pause_ms > 10000 || pid <= 0) {
        std::cerr << "jobsentry sample: accepted values are --count 1..100000, --pause-ms 0..10000, PID > 0\n";
        return 2;
    }
    StackWalker walker;
    std::map<std::string, int> chain_counts;
    std::vector<double> costs, unwinds, helds;
    StackSample last;
    for (int i = 0; i < count; ++i) {
        last = walker.sample(static_cast<pid_t>(pid));
        if (last.status != SampleStatus::ok) {
            std::cerr << "jobsentry sample: pid " << pid << ": " << to_string(last.status) << ": " << last.error
                      << '\n';
            return 1;
        }
        costs.push_back(last.cost_seconds * 1e6);
        unwinds.push_back((last.cost_seconds - last.stop_seconds) * 1e6);
        helds.push_back(last.held_seconds * 1e6);
        if (chains) {
            std::string chain;
            for (auto f = last.frames.rbegin(); f != last.frames.rend(); ++f) chain += frame_label(*f) + " > ";
            ++chain_counts[chain];
        }
        if (pause_ms) usleep(static_cast<useconds_t>(pause_ms) * 1000);
    }
    std::cout << "pid " << pid << " state " << last.state << (last.in_mpi ? " inside MPI" : " outside MPI") << '\n';
    for (const auto& f : last.frames)
        std::cout << "  0x" << std::hex << f.pc << std::dec << "  " << frame_label(f) << (f.mpi ? "  [mpi]" : "")
                  << '\n';
    for (const auto& [chain, n] : chain_counts) std::cout << n << "\t" << chain << '\n';
    std::cout << "samples " << costs.size() << "  cost_us median " << percentile(costs, 0.5) << "  p99 "
              << percentile(costs, 0.99) << "  first " << costs.front() << "  without_stop_wait_us median "
              << percentile(unwinds, 0.5) << "  p99 " << percentile(unwinds, 0.99) << "  held_us median "
              << percentile(helds, 0.5) << "  p99 " << percentile(helds, 0.99) << '\n';
    return 0;
}

int run_watch(const std::vector<std::string>& args) {
    WatchParse parsed = parse_watch_options(args);
    if (parsed.help) {
        std::cout << watch_help();
        return 0;
    }
    if (!parsed.error.empty()) {
        std::cerr << "jobsentry watch: " << parsed.error << '\n';
        return 2;
    }
    CommandJob job(parsed.options);
    return run_watcher(parsed.options, job);
}

int run_supervise(const std::vector<std::string>& args) {
    SuperviseParse parsed = parse_supervise_options(args);
    if (parsed.help) {
        std::cout << supervise_help();
        return 0;
    }
    if (!parsed.error.empty()) {
        std::cerr << "jobsentry supervise: " << parsed.error << '\n';
        return 2;
    }
    SlurmJob job(parsed.options);
    int status = run_watcher(parsed.options, job);
    return status == 127 ? 1 : status;
}

int run_agent(const std::vector<std::string>& args) {
    AgentParse parsed = parse_agent_options(args);
    if (parsed.help) {
        std::cout << agent_help();
        return 0;
    }
    if (!parsed.error.empty()) {
        std::cerr << "jobsentry agent: " << parsed.error << '\n';
        return 2;
    }
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
        return c.run(args);
    }
    std::cerr << "jobsentry: unknown command '" << command << "'; accepted commands are " << names << "\n\n"
              << usage();
    return 2;
}
