// The thin I/O layer of `jobsentry ckpt advise`: reads the iteration file,
// prints the advice; exit 2 on bad input, naming the value.
#include "tools/checkpoint/ckpt_command.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "tools/checkpoint/advice.h"
#include "tools/checkpoint/advise_options.h"
#include "base/command_line.h"

namespace jobsentry::ckpt {
namespace {

int run_advise(const std::vector<std::string>& args) {
    AdviseParse parsed = parse_advise_options(args);
    if (auto status = answered(parsed.help, parsed.error, advise_help, "jobsentry ckpt advise")) return *status;
    const AdviseOptions& o = parsed.options;
    IterationDist dist;
    if (!o.iter_file.empty()) {
        std::ifstream in(o.iter_file);
        if (!in) {
            std::cerr << "jobsentry ckpt advise: --iter-file " << o.iter_file << ": cannot read it\n";
            return 2;
        }
        std::stringstream text;
        text << in.rdbuf();
        std::string error;
        std::vector<double> times = parse_iteration_times(text.str(), &error);
        if (!error.empty()) {
            std::cerr << "jobsentry ckpt advise: --iter-file " << o.iter_file << ": " << error << '\n';
            return 2;
        }
        dist = IterationDist::empirical(std::move(times));
        if (o.dist == DistKind::gamma && !(dist.sd() > 0)) {
            std::cerr << "jobsentry ckpt advise: --dist gamma: the times in " << o.iter_file
                      << " do not vary, and a Gamma law needs a positive standard deviation; use --dist normal"
                         " or empirical\n";
            return 2;
        }
        if (o.dist != DistKind::empirical) dist = IterationDist::from_moments(o.dist, dist.mean(), dist.sd());
    } else if (o.have_iterations) {
        dist = IterationDist::from_moments(o.dist, o.iter_mean_s, o.iter_sd_s);
    }
    Advice advice = compute_advice(o, o.have_iterations ? &dist : nullptr);
    for (const auto& w : advice.warnings) std::cerr << "jobsentry ckpt advise: warning: " << w << '\n';
    if (o.json) std::cout << advice_json(advice).dump(2) << '\n';
    else std::cout << advice_text(advice);
    return 0;
}

}  // namespace

int run_ckpt(const std::vector<std::string>& args) {
    if (!args.empty() && args[0] == "advise") return run_advise({args.begin() + 1, args.end()});
    if (!args.empty() && args[0] == "mtbf") return run_mtbf({args.begin() + 1, args.end()});
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
        std::cout << "Usage: jobsentry ckpt advise [options]   Young/Daly periods (jobsentry ckpt advise --help)\n"
                     "       jobsentry ckpt mtbf [options]     per-node MTBF from Slurm's node events\n";
        return 0;
    }
    std::cerr << "jobsentry ckpt: " << (args.empty() ? "no subcommand" : "unknown subcommand '" + args[0] + "'")
              << "; accepted: advise, mtbf (see jobsentry ckpt --help)\n";
    return 2;
}

}  // namespace jobsentry::ckpt
