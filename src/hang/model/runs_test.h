// Wald–Wolfowitz runs test, as ParaStack uses it to check that S_out samples
// are random: values above the sequence mean are (+), below (-), values equal
// to the mean are dropped; R is the number of runs. The non-rejection region
// (lower, upper) comes from the exact distribution of R given the counts of
// (+) and (-), so it matches the printed tables for small samples
// (n+ = 7, n- = 9 gives (4, 14) at 95 %).
#pragma once

#include <vector>

namespace jobsentry {

struct RunsTestResult {
    int runs = 0;
    int n_plus = 0;
    int n_minus = 0;
    int lower = 0;          // reject when runs <= lower
    int upper = 0;          // reject when runs >= upper
    bool applicable = false;  // false when one side is empty: no evidence either way
    bool random = true;     // true unless the test rejects randomness
};

RunsTestResult runs_test(const std::vector<double>& sequence, double significance = 0.05);

// P(R = r) for n1 and n2 items of two kinds in random order.
double runs_probability(int runs, int n1, int n2);

}  // namespace jobsentry
