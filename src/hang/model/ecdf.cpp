#include "hang/model/ecdf.h"

#include <cmath>

namespace jobsentry {

int64_t Ecdf::key(double value) { return static_cast<int64_t>(std::llround(value * 1e9)); }

void Ecdf::add(double value) {
    ++counts_[key(value)];
    ++total_;
}

double Ecdf::cdf(double x) const {
    if (total_ == 0) return 0.0;
    uint64_t below = 0;
    for (auto it = counts_.begin(); it != counts_.end() && it->first <= key(x); ++it) below += it->second;
    return static_cast<double>(below) / total_;
}

size_t Ecdf::distinct_below(double x) const {
    size_t n = 0;
    for (auto it = counts_.begin(); it != counts_.end() && it->first < key(x); ++it) ++n;
    return n;
}

double Ecdf::quantile(double p) const {
    if (total_ == 0) return 0.0;
    const double needed = p * total_;
    uint64_t below = 0;
    for (const auto& [k, count] : counts_) {
        below += count;
        if (below >= needed - 1e-9) return k * 1e-9;
    }
    return counts_.rbegin()->first * 1e-9;
}

}  // namespace jobsentry
