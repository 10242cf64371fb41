#include "hang/model/runs_test.h"

#include "hang/model/log_choose.h"

#include <cmath>
#include <numeric>

namespace jobsentry {

double runs_probability(int runs, int n1, int n2) {
    if (runs < 2 || n1 <= 0 || n2 <= 0) return 0.0;
    const double total = log_choose(n1 + n2, n1);
    if (runs % 2 == 0) {
        int k = runs / 2;
        return 2.0 * std::exp(log_choose(n1 - 1, k - 1) + log_choose(n2 - 1, k - 1) - total);
    }
    int k = (runs - 1) / 2;
    return std::exp(log_choose(n1 - 1, k) + log_choose(n2 - 1, k - 1) - total) +
           std::exp(log_choose(n1 - 1, k - 1) + log_choose(n2 - 1, k) - total);
}

RunsTestResult runs_test(const std::vector<double>& sequence, double significance) {
    RunsTestResult out;
    if (sequence.empty()) return out;
    const double mean = std::accumulate(sequence.begin(), sequence.end(), 0.0) / sequence.size();
    int last_sign = 0;
    for (double v : sequence) {
        int sign = v > mean ? 1 : (v < mean ? -1 : 0);
        if (sign == 0) continue;
        (sign > 0 ? out.n_plus : out.n_minus)++;
        if (sign != last_sign) ++out.runs;
        last_sign = sign;
    }
    if (out.n_plus == 0 || out.n_minus == 0) return out;
    out.applicable = true;

    const int max_runs = out.n_plus == out.n_minus ? 2 * out.n_plus : 2 * std::min(out.n_plus, out.n_minus) + 1;
    const double tail = significance / 2;
    double cumulative = 0;
    out.lower = 1;  // nothing is rejected below when even R = 2 is not rare
    for (int r = 2; r <= max_runs; ++r) {
        cumulative += runs_probability(r, out.n_plus, out.n_minus);
        if (cumulative > tail) break;
        out.lower = r;
    }
    cumulative = 0;
    out.upper = max_runs + 1;
    for (int r = max_runs; r >= 2; --r) {
        cumulative += runs_probability(r, out.n_plus, out.n_minus);
        if (cumulative > tail) break;
        out.upper = r;
    }
    out.random = out.runs > out.lower && out.runs < out.upper;
    return out;
}

}  // namespace jobsentry
