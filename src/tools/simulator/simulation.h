// One simulation as `jobsentry simulate` runs it: build or read the schedule,
// run it without noise, then with the trace's noise, and compare.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "tools/simulator/params.h"
#include "tools/simulator/schedule.h"

namespace jobsentry::sim {

// Whose timing rules: the project's (docs/simulator.md, "The model") or
// LogGOPSim's own (loggopsim_engine.h; "The two models").
enum class Model { jobsentry, loggopsim };

struct SimulationRequest {
    std::string collective = "dissemination";
    std::uint32_t procs = 16384;
    std::uint64_t bytes = 8;
    std::string goal_file;    // non-empty: simulate this GOAL schedule instead of a collective
    std::string noise_trace;  // non-empty: inject this trace
    bool cosched = false;
    std::uint64_t seed = 1;
    LogGOPS params;
    Model model = Model::jobsentry;
};

struct SimulationReport {
    std::string schedule;          // "dissemination, 16384 processes, 8 bytes" or the GOAL file
    std::string model;             // "jobsentry" or "loggopsim"
    std::uint32_t procs = 0;
    std::uint64_t messages = 0;
    Time makespan = 0;
    Time noise_free_makespan = 0;
    double slowdown = 1;
    std::uint64_t events = 0;      // events of the (noisy) run reported
    double events_per_second = 0;       // per second of CPU time of the event loop (one core)
    double events_per_wall_second = 0;  // per second of wall time (lower when the machine is shared)
    double build_seconds = 0;      // building or reading the schedule
};

// The request's schedule (its collective or GOAL file) and a description of
// it ("dissemination, 16384 processes, 8 bytes" or "GOAL FILE"). Throws as below.
Schedule make_schedule(const SimulationRequest& request, std::string& description);

// Throws std::invalid_argument (bad request: unknown collective, P < 2) or
// std::runtime_error (unreadable or malformed file, deadlocked schedule).
SimulationReport run_simulation(const SimulationRequest& request);

nlohmann::json to_json(const SimulationReport& report);
std::string to_text(const SimulationReport& report);

}  // namespace jobsentry::sim
