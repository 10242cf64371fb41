#include "hang/model/fisher_test.h"

#include "hang/model/log_choose.h"

#include <algorithm>
#include <cmath>

namespace jobsentry {

namespace {

// The tail term by term, each from log C: the reference, and what is left where a term underflows.
double tail_by_terms(int x1, int n1, int marked, int total, int top) {
    const double log_all = log_choose(total, n1);
    double p = 0;
    for (int k = x1; k <= top; ++k) p += std::exp(log_choose(marked, k) + log_choose(total - marked, n1 - k) - log_all);
    return p;
}

}  // namespace

// The slow verdict runs some 60 of these at each look, with counts up to 512: one exp and six
// lgamma for the first term only, each next term from the one before (the ratio of consecutive
// hypergeometric probabilities), and past the mode, where the terms only fall, the sum ends once a
// term no longer changes it. Relative error about 1e-15 against the term-by-term sum
// (tests/unit/test_slow_rank.cpp).
double fisher_greater(int x1, int n1, int x0, int n0) {
    if (n1 <= 0 || n0 < 0 || x1 <= 0) return 1;
    const int total = n0 + n1;
    const int marked = x0 + x1;
    const int top = std::min(n1, marked);
    if (x1 > top) return 0;
    const int others = total - marked;  // unmarked items
    double term = std::exp(log_choose(marked, x1) + log_choose(others, n1 - x1) - log_choose(total, n1));
    if (!(term > 1e-280) || x0 > n0) return std::min(1.0, tail_by_terms(x1, n1, marked, total, top));
    const double mode = (n1 + 1.0) * (marked + 1.0) / (total + 2.0);
    double p = term;
    for (int k = x1; k < top; ++k) {
        // P(k+1) / P(k) = (marked - k)(n1 - k) / ((k + 1)(others - n1 + k + 1))
        term *= static_cast<double>(marked - k) * (n1 - k) / ((k + 1.0) * (others - n1 + k + 1.0));
        p += term;
        if (k + 1 >= mode && term <= p * 1e-17) break;
    }
    return std::min(1.0, p);
}

}  // namespace jobsentry
