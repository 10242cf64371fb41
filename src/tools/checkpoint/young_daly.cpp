#include "tools/checkpoint/young_daly.h"

#include <algorithm>
#include <cmath>

#include <boost/math/special_functions/lambert_w.hpp>

namespace jobsentry::ckpt {

namespace {
// W₀ of an argument known to lie in [−1/e, 0]; rounding may put it a hair
// below −1/e, where Boost would throw, so clamp to the branch point.
double w0_negative(double z) {
    const double branch = -std::exp(-1.0);
    return boost::math::lambert_w0(std::max(z, branch));
}
}  // namespace

double failure_rate(double node_mtbf_s, double nodes) { return nodes / node_mtbf_s; }

double failure_rate_from_pfail(double p_fail, double seconds) { return -std::log1p(-p_fail) / seconds; }

double segment_time(const Platform& p, double work) {
    return (1 / p.lambda + p.D) * std::exp(p.lambda * p.R) * std::expm1(p.lambda * (work + p.C));
}

double young_daly_period(const Platform& p) { return std::sqrt(2 * p.C / p.lambda); }

double periodic_slowdown(const Platform& p, double period) { return segment_time(p, period) / period; }

bool checkpoint_exceeds_mtbf(const Platform& p) { return p.lambda * p.C > 1; }

double static_overhead(const Platform& p, const IterationDist& dist, long k) {
    return std::expm1(p.lambda * p.C + static_cast<double>(k) * dist.log_mgf(p.lambda)) / static_cast<double>(k);
}

double static_slowdown(const Platform& p, const IterationDist& dist, long k) {
    double kk = static_cast<double>(k);
    return (1 / p.lambda + p.D) * std::exp(p.lambda * p.R) *
           std::expm1(p.lambda * p.C + kk * dist.log_mgf(p.lambda)) / (kk * dist.mean());
}

StaticChoice static_choice(const Platform& p, const IterationDist& dist) {
    StaticChoice out;
    double log_m = dist.log_mgf(p.lambda);
    // W₀(−e^{−λC−1}) + 1 lies in (0, 1]; for large λC it tends to 1.
    double numerator = w0_negative(-std::exp(-p.lambda * p.C - 1)) + 1;
    out.x_static = std::isfinite(log_m) && log_m > 0 ? numerator / log_m : 0;
    long lo = std::max(1L, static_cast<long>(std::floor(out.x_static)));
    long hi = std::max(1L, static_cast<long>(std::ceil(out.x_static)));
    out.k_static = static_overhead(p, dist, hi) < static_overhead(p, dist, lo) ? hi : lo;
    out.k_fo_real = young_daly_period(p) / dist.mean();
    out.k_fo = std::max(1L, std::lround(out.k_fo_real));
    return out;
}

double dynamic_threshold(const Platform& p, const IterationDist& dist) {
    double m1 = dist.mgf_minus_one(p.lambda);
    if (!std::isfinite(m1) || !(m1 > 0)) return 0;
    double a = dist.mean() / m1;
    double la = p.lambda * a;
    double z = -std::exp(std::log(la) - p.lambda * (p.C + a));
    // (W₀ + 1)/λ + (a − 1/λ): both terms are moderate, while W₀/λ and a are
    // each close to ±1/λ for small λ.
    double w = (w0_negative(z) + 1) / p.lambda + (a - 1 / p.lambda);
    return std::max(0.0, w);
}

}  // namespace jobsentry::ckpt
