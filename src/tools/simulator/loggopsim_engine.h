// LogGOPSim's own timing rules, for `jobsentry simulate --model loggopsim`:
// the rules of src/LogGOPSim/LogGOPSim.cpp (spcl/LogGOPSim), re-implemented
// from reading it, so that a schedule gives LogGOPSim's makespan. Where they
// differ from the project's model (docs/simulator.md, "The two models"):
// a message takes the receiver's CPU and NIC together when it arrives (o plus
// the larger of (s-1)O and (s-1)G, whether or not its receive is posted);
// a rendezvous message travels at once like an eager one and the send
// completes when its receive matches it; ops wait for busy resources by being
// queued again, events of equal time leave in the order they were first queued.
#pragma once

#include "tools/simulator/engine.h"

namespace jobsentry::sim {

SimResult simulate_loggopsim(Schedule& schedule, const LogGOPS& params, const Noise& noise = Noise());

}  // namespace jobsentry::sim
