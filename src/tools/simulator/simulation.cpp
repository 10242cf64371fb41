#include "tools/simulator/simulation.h"

#include <chrono>
#include <sstream>
#include <stdexcept>

#include "tools/simulator/collectives.h"
#include "tools/simulator/engine.h"
#include "tools/simulator/goal_reader.h"
#include "tools/simulator/loggopsim_engine.h"
#include "tools/simulator/noise.h"

namespace jobsentry::sim {

Schedule make_schedule(const SimulationRequest& req, std::string& description) {
    if (!req.goal_file.empty()) {
        description = "GOAL " + req.goal_file;
        return read_goal_file(req.goal_file);
    }
    description = req.collective + ", " + std::to_string(req.procs) + " processes, " + std::to_string(req.bytes) +
                  " bytes";
    return make_collective(req.collective, req.procs, req.bytes);
}

SimulationReport run_simulation(const SimulationRequest& req) {
    SimulationReport rep;
    auto t0 = std::chrono::steady_clock::now();
    Schedule schedule = make_schedule(req, rep.schedule);
    // The trace is read before simulating so that a bad file fails at once.
    Noise noise;
    if (!req.noise_trace.empty()) noise = Noise(read_noise_trace_file(req.noise_trace), req.seed, req.cosched);
    rep.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rep.procs = schedule.num_ranks;
    rep.messages = schedule.messages();

    auto run = req.model == Model::loggopsim ? simulate_loggopsim : simulate;
    rep.model = req.model == Model::loggopsim ? "loggopsim" : "jobsentry";
    SimResult quiet = run(schedule, req.params, Noise());
    if (!quiet.error.empty()) throw std::runtime_error(rep.schedule + ": " + quiet.error);
    SimResult noisy = noise.active() ? run(schedule, req.params, noise) : quiet;
    if (!noisy.error.empty()) throw std::runtime_error(rep.schedule + ": " + noisy.error);
    rep.makespan = noisy.makespan;
    rep.noise_free_makespan = quiet.makespan;
    rep.slowdown = quiet.makespan ? static_cast<double>(noisy.makespan) / static_cast<double>(quiet.makespan) : 1.0;
    rep.events = noisy.events;
    rep.events_per_second = noisy.cpu_seconds > 0 ? static_cast<double>(noisy.events) / noisy.cpu_seconds : 0;
    rep.events_per_wall_second = noisy.seconds > 0 ? static_cast<double>(noisy.events) / noisy.seconds : 0;
    return rep;
}

nlohmann::json to_json(const SimulationReport& r) {
    return {{"schedule", r.schedule},
            {"model", r.model},
            {"procs", r.procs},
            {"messages", r.messages},
            {"makespan_ns", r.makespan},
            {"noise_free_makespan_ns", r.noise_free_makespan},
            {"slowdown", r.slowdown},
            {"events", r.events},
            {"events_per_second", r.events_per_second},
            {"events_per_wall_second", r.events_per_wall_second},
            {"build_seconds", r.build_seconds}};
}

std::string to_text(const SimulationReport& r) {
    std::ostringstream out;
    out << "schedule             " << r.schedule << " (" << r.messages << " messages)\n"
        << "model                " << r.model << "\n"
        << "makespan             " << r.makespan << " ns\n"
        << "noise-free makespan  " << r.noise_free_makespan << " ns\n"
        << "slowdown             " << r.slowdown << "\n"
        << "events               " << r.events << "\n"
        << "events/s             " << static_cast<std::uint64_t>(r.events_per_second) << " (CPU time; "
        << static_cast<std::uint64_t>(r.events_per_wall_second) << " by wall time)\n";
    return out.str();
}

}  // namespace jobsentry::sim
