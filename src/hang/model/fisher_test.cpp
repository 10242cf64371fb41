#include "hang/model/fisher_test.h"

#include "hang/model/log_choose.h"

#include <algorithm>
#include <cmath>

namespace jobsentry {

double fisher_greater(int x1, int n1, int x0, int n0) {
    if (n1 <= 0 || n0 < 0 || x1 <= 0) return 1;
    const int total = n0 + n1;
    const int marked = x0 + x1;
    const int top = std::min(n1, marked);
    const double log_all = log_choose(total, n1);
    double p = 0;
    for (int k = x1; k <= top; ++k) p += std::exp(log_choose(marked, k) + log_choose(total - marked, n1 - k) - log_all);
    return std::min(1.0, p);
}

}  // namespace jobsentry
