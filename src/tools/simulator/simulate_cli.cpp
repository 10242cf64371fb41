#include "tools/simulator/simulate_cli.h"

#include <iostream>
#include <stdexcept>

#include "tools/simulator/goal_writer.h"
#include "tools/simulator/noise.h"
#include "tools/simulator/predict.h"
#include "tools/simulator/simulate_options.h"
#include "tools/simulator/simulation.h"
#include "base/command_line.h"

namespace jobsentry {

int run_simulate(const std::vector<std::string>& args) {
    sim::SimulateParse parsed = sim::parse_simulate_options(args);
    if (auto status = answered(parsed.help, parsed.error, sim::simulate_help, "jobsentry simulate")) return *status;
    try {
        if (parsed.predict) {
            sim::PredictOptions opt;
            opt.bytes = parsed.request.bytes;
            opt.params = parsed.request.params;
            opt.seed = parsed.request.seed;
            opt.cosched = parsed.request.cosched;
            std::cout << sim::predict_noise_slowdown(sim::read_noise_trace_file(parsed.request.noise_trace), opt).dump(2)
                      << '\n';
            return 0;
        }
        if (!parsed.write_goal.empty()) {
            std::string description;
            sim::write_goal_file(sim::make_schedule(parsed.request, description), parsed.write_goal);
            std::cerr << "jobsentry simulate: wrote " << description << " to " << parsed.write_goal << '\n';
            return 0;
        }
        sim::SimulationReport report = sim::run_simulation(parsed.request);
        if (parsed.json) std::cout << sim::to_json(report).dump(2) << '\n';
        else std::cout << sim::to_text(report);
        return 0;
    } catch (const std::invalid_argument& e) {
        std::cerr << "jobsentry simulate: " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {  // unreadable or malformed input file, deadlocked schedule
        std::cerr << "jobsentry simulate: " << e.what() << '\n';
        return 2;
    }
}

}  // namespace jobsentry
