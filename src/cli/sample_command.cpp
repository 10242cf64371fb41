#include "cli/sample_command.h"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <map>

#include <boost/program_options.hpp>

#include "base/command_line.h"
#include "hang/sampler/stack_walker.h"
#include "hang/watch/report.h"

namespace po = boost::program_options;

namespace jobsentry {

namespace {

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    size_t index = static_cast<size_t>(p * (values.size() - 1) + 0.5);
    return values[index];
}

}  // namespace

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
    bool help = false;
    const std::string error = parse_with(desc, args, &help, "jobsentry sample --help", &pos);
    if (help) {
        std::cout << "Usage: jobsentry sample [options] PID\n\n" << desc;
        return 0;
    }
    if (!error.empty()) {
        std::cerr << "jobsentry sample: " << error << '\n';
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
    // The sampler's own CPU time (the cost a fully subscribed node pays), step by step as the
    // watcher's report gives it (docs/watch.md, "The cost of watching").
    const CpuCost& cpu = walker.cost();
    std::cout << "cpu_us mean: sample " << cpu[CostStep::sample].mean_s() * 1e6;
    for (CostStep step : {CostStep::stop_copy, CostStep::unwind, CostStep::symbolize, CostStep::classify})
        std::cout << "  " << to_string(step) << ' ' << cpu[step].mean_s() * 1e6;
    std::cout << "  (steps timed in 1 sample of " << cpu.sampler_steps_every << ")\n";
    // Misses of libunwind's register-rule cache: each costs a table search and an FDE read.
    std::cout << "unwind_table_lookups per sample " << static_cast<double>(walker.table_lookups()) / count << '\n';
    return 0;
}

}  // namespace jobsentry
