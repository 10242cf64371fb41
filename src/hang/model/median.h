// The median of a non-empty list of values (the mean of the middle two for an even count). Shared by the
// slow verdict's starvation evidence and verification's starved ranks (named apart from
// tools/loggp's median, which the hang core may not use).
#pragma once

#include <algorithm>
#include <vector>

namespace jobsentry {

inline double median_of(std::vector<double> xs) {
    std::sort(xs.begin(), xs.end());
    const size_t n = xs.size();
    return n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

}  // namespace jobsentry
