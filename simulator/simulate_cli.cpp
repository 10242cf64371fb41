#include "simulate_cli.h"

#include <iostream>
#include <stdexcept>

#include "simulate_options.h"
#include "simulation.h"

namespace jobsentry {

int run_simulate(const std::vector<std::string>& args) {
    sim::SimulateParse parsed = sim::parse_simulate_options(args);
    if (parsed.help) {
        std::cout << sim::simulate_help();
        return 0;
    }
    if (!parsed.error.empty()) {
        std::cerr << "jobsentry simulate: " << parsed.error << '\n';
        return 2;
    }
    try {
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
