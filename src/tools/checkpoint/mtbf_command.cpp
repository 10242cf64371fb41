// `jobsentry ckpt mtbf`: the per-node MTBF from Slurm's node events, to feed
// `ckpt advise --mtbf` or JOBSENTRY_MTBF. Reads the saved output of
//   sacctmgr -n -P list event event=node start=FROM end=TO format=NodeName,Start,End,State,Reason
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "tools/checkpoint/ckpt_command.h"
#include "tools/checkpoint/mtbf_estimate.h"
#include "base/command_line.h"

namespace po = boost::program_options;

namespace jobsentry::ckpt {

int run_mtbf(const std::vector<std::string>& args) {
    std::string events_file, from, to;
    long nodes = 0;
    bool json = false;
    po::options_description d("Options of jobsentry ckpt mtbf");
    // clang-format off
    d.add_options()
        ("help,h", "print this help and exit")
        ("events", po::value(&events_file)->required(), "saved output of sacctmgr -n -P list event event=node "
            "format=NodeName,Start,End,State,Reason")
        ("cluster-nodes", po::value(&nodes)->required(), "nodes of the cluster during the window")
        ("from", po::value(&from)->required(), "window start, e.g. 2026-10-01T00:00:00 (as in the events)")
        ("to", po::value(&to)->required(), "window end, same format")
        ("json", po::bool_switch(&json), "print JSON instead of text");
    // clang-format on
    bool help = false;
    const std::string error = parse_with(d, args, &help, "jobsentry ckpt mtbf --help");
    const auto help_text = [&] {
        std::ostringstream text;
        text << "Usage: jobsentry ckpt mtbf --events FILE --cluster-nodes N --from T --to T\n\n"
                "Per-node MTBF = node-time / failures (events whose state holds DOWN or FAIL),\n"
                "with a one-sided 95 % lower bound.\n\n"
             << d;
        return text.str();
    };
    if (auto status = answered(help, error, help_text, "jobsentry ckpt mtbf")) return *status;
    double t0 = 0, t1 = 0;
    if (!parse_event_time(from, &t0) || !parse_event_time(to, &t1) || !(t1 > t0)) {
        std::cerr << "jobsentry ckpt mtbf: --from " << from << " --to " << to
                  << ": accepted values are times like 2026-10-01T00:00:00, --to after --from\n";
        return 2;
    }
    if (nodes < 1) {
        std::cerr << "jobsentry ckpt mtbf: --cluster-nodes " << nodes << ": accepted values are whole numbers >= 1\n";
        return 2;
    }
    std::ifstream in(events_file);
    if (!in) {
        std::cerr << "jobsentry ckpt mtbf: --events " << events_file << ": cannot read it\n";
        return 2;
    }
    std::stringstream text;
    text << in.rdbuf();
    std::vector<std::string> errors;
    auto events = parse_sacctmgr_events(text.str(), &errors);
    for (const auto& e : errors) std::cerr << "jobsentry ckpt mtbf: warning: " << events_file << ": " << e << '\n';
    MtbfEstimate m = estimate_node_mtbf(events, static_cast<double>(nodes), t0, t1);
    if (json) {
        nlohmann::json j{{"failures", m.failures},
                         {"node_seconds", m.node_seconds},
                         {"node_mtbf_s", m.failures ? nlohmann::json(m.node_mtbf_s) : nlohmann::json()},
                         {"node_mtbf_lower95_s", m.lower_bound_s}};
        std::cout << j.dump(2) << '\n';
    } else {
        std::cout << m.failures << " node failures in " << m.node_seconds / 3600 << " node-hours\n";
        if (m.failures) std::cout << "per-node MTBF " << std::lround(m.node_mtbf_s / 3600) << "h";
        else std::cout << "per-node MTBF unknown (no failure)";
        std::cout << ", 95 % lower bound " << std::lround(m.lower_bound_s / 3600)
                  << "h (use e.g. --mtbf " << std::lround((m.failures ? m.node_mtbf_s : m.lower_bound_s) / 3600)
                  << "h)\n";
    }
    return 0;
}

}  // namespace jobsentry::ckpt
