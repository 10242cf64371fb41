// The LogGOPS discrete-event simulator core: one monotone event queue, compact
// per-rank state (CPU and NIC free times, posted and unexpected queues as
// lists in one shared pool), MPI matching by (source or any-source, tag) in
// posting order, eager messages up to S bytes and rendezvous above.
// See docs/simulator.md for the timing rules and why they give the closed forms.
#pragma once

#include <cstdint>
#include <string>

#include "tools/simulator/noise.h"
#include "tools/simulator/params.h"
#include "tools/simulator/schedule.h"

namespace jobsentry::sim {

struct SimResult {
    Time makespan = 0;             // completion of the last operation
    std::uint64_t events = 0;      // events taken from the queue
    std::uint64_t messages = 0;    // messages delivered (eager or rendezvous data)
    std::uint64_t unexpected = 0;  // messages that arrived before their receive was posted
    double seconds = 0;            // wall time of the event loop
    double cpu_seconds = 0;        // CPU time of the event loop (the machine may be shared)
    std::string error;             // non-empty: the schedule deadlocked or was inconsistent
};

// Runs the schedule. The Schedule's per-op engine state is reset first, so one
// schedule can be simulated several times (noise-free, then with noise).
SimResult simulate(Schedule& schedule, const LogGOPS& params, const Noise& noise = Noise());

// CPU time of the calling thread (the event loops' rate is per CPU second).
double thread_cpu_seconds();

}  // namespace jobsentry::sim
