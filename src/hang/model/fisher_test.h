// Fisher's exact test, one-sided, for "the second share is larger than the
// first": x1 of n1 against x0 of n0. Exact (the hypergeometric tail given the
// margins), so it keeps its level with the small counts a few dozen sampling
// rounds give, where a normal approximation of the two-proportion test is
// far too liberal in the tail the slow verdict needs (p ~ 1e-6).
#pragma once

namespace jobsentry {

// P(X >= x1) for X hypergeometric: n1 draws from n0 + n1 items of which
// x0 + x1 are marked. 1 when x1 is not above what the margins expect.
double fisher_greater(int x1, int n1, int x0, int n0);

}  // namespace jobsentry
