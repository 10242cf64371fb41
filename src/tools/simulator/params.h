// LogGOPS parameters of the simulator (pure data). Times are integer
// nanoseconds; G and O are nanoseconds per byte and are charged for the bytes
// after the first, as LogGOPSim does, rounded to whole nanoseconds per message.
#pragma once

#include <cmath>
#include <cstdint>

namespace jobsentry::sim {

using Time = std::uint64_t;  // nanoseconds

struct LogGOPS {
    Time L = 5300;              // latency
    Time o = 2300;              // CPU overhead per message
    Time g = 2000;              // NIC gap between messages
    double G = 2.5;             // NIC gap per byte after the first
    double O = 1.0;             // CPU overhead per byte after the first
    std::uint64_t S = 65536;    // messages above S bytes use rendezvous

    Time bytes_O(std::uint64_t s) const { return s > 1 ? static_cast<Time>(std::llround((s - 1) * O)) : 0; }
    Time bytes_G(std::uint64_t s) const { return s > 1 ? static_cast<Time>(std::llround((s - 1) * G)) : 0; }
    Time cpu(std::uint64_t s) const { return o + bytes_O(s); }  // o + (s-1)O
    Time nic(std::uint64_t s) const { return g + bytes_G(s); }  // g + (s-1)G
};

}  // namespace jobsentry::sim
