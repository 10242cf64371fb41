// LogGOPS parameters of the simulator's hand-worked test cases (docs/simulator.md).
#pragma once

#include "tools/simulator/params.h"

namespace jobsentry::sim {

inline LogGOPS test_params(Time L, Time o, Time g, double G, double O, std::uint64_t S) {
    LogGOPS p;
    p.L = L;
    p.o = o;
    p.g = g;
    p.G = G;
    p.O = O;
    p.S = S;
    return p;
}

// L=100 o=10 g=5 G=1 O=2: the small case worked by hand.
inline LogGOPS small_params(std::uint64_t S) { return test_params(100, 10, 5, 1, 2, S); }

}  // namespace jobsentry::sim
