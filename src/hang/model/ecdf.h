// Empirical CDF of S_out. S_out = n_out / n_sampled takes few distinct values,
// so the distribution is kept as counts per value: memory is bounded by the
// number of distinct fractions, not by the length of the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

namespace jobsentry {

class Ecdf {
public:
    void add(double value);
    uint64_t size() const { return total_; }
    // F(x): share of samples <= x.
    double cdf(double x) const;
    // F^-1(p): the smallest sample value v with F(v) >= p; p in (0, 1].
    double quantile(double p) const;
    // a <= b as the ECDF compares values (to 1e-9), so that S_out = 1/3 is
    // "at most" the threshold 1/3 that quantile() returned.
    static bool at_most(double a, double b) { return key(a) <= key(b); }
    // Number of distinct sample values below x, and whether x was seen.
    size_t distinct_below(double x) const;
    bool contains(double x) const { return counts_.count(key(x)) > 0; }
    static int64_t key(double value);  // values are compared to 1e-9

private:
    std::map<int64_t, uint64_t> counts_;
    uint64_t total_ = 0;
};

}  // namespace jobsentry
