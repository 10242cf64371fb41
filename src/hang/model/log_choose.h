// log C(n, k), by lgamma: the exact tests (runs_test, fisher_test) add and
// subtract these instead of multiplying binomials that overflow a double.
#pragma once
#include <cmath>

namespace jobsentry {

inline double log_choose(int n, int k) {
    if (k < 0 || k > n) return -INFINITY;
    return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
}

}  // namespace jobsentry
