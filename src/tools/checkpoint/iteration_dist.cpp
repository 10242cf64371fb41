#include "tools/checkpoint/iteration_dist.h"

#include <cmath>
#include <limits>

namespace jobsentry::ckpt {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

const char* to_string(DistKind kind) {
    switch (kind) {
        case DistKind::uniform: return "uniform";
        case DistKind::gamma: return "gamma";
        case DistKind::normal: return "normal";
        case DistKind::empirical: return "empirical";
    }
    return "?";
}

bool parse_dist_kind(const std::string& text, DistKind* out) {
    for (DistKind k : {DistKind::uniform, DistKind::gamma, DistKind::normal, DistKind::empirical})
        if (text == to_string(k)) {
            *out = k;
            return true;
        }
    return false;
}

IterationDist IterationDist::from_moments(DistKind kind, double mean, double sd) {
    switch (kind) {
        case DistKind::uniform: return uniform(mean - sd * std::sqrt(3.0), mean + sd * std::sqrt(3.0));
        case DistKind::gamma: return gamma((mean / sd) * (mean / sd), mean / (sd * sd));
        default: return normal(mean, sd);
    }
}

double IterationDist::mean() const {
    switch (kind) {
        case DistKind::uniform: return (p1 + p2) / 2;
        case DistKind::gamma: return p1 / p2;
        case DistKind::normal: return p1;
        case DistKind::empirical: {
            double sum = 0;
            for (double x : samples) sum += x;
            return samples.empty() ? 0 : sum / static_cast<double>(samples.size());
        }
    }
    return 0;
}

double IterationDist::sd() const {
    switch (kind) {
        case DistKind::uniform: return (p2 - p1) / std::sqrt(12.0);
        case DistKind::gamma: return std::sqrt(p1) / p2;
        case DistKind::normal: return p2;
        case DistKind::empirical: {
            if (samples.size() < 2) return 0;
            double m = mean(), ss = 0;
            for (double x : samples) ss += (x - m) * (x - m);
            return std::sqrt(ss / static_cast<double>(samples.size() - 1));
        }
    }
    return 0;
}

double IterationDist::log_mgf(double lambda) const {
    switch (kind) {
        case DistKind::uniform: {
            // E[e^{λX}] = e^{λa} (e^{λ(b−a)} − 1) / (λ(b−a)); the ratio tends to 1 as λ(b−a) → 0.
            double span = lambda * (p2 - p1);
            double ratio = span > 1e-300 ? std::expm1(span) / span : 1.0;
            return lambda * p1 + std::log(ratio);
        }
        case DistKind::gamma:
            // (1 − λ/β)^{−k}, finite only for λ < β.
            if (lambda >= p2) return kInf;
            return -p1 * std::log1p(-lambda / p2);
        case DistKind::normal: return lambda * p1 + 0.5 * lambda * lambda * p2 * p2;
        case DistKind::empirical: {
            // log(1 + mean(e^{λx} − 1)): no loss of digits for small λx.
            if (samples.empty()) return 0;
            double sum = 0;
            for (double x : samples) sum += std::expm1(lambda * x);
            return std::log1p(sum / static_cast<double>(samples.size()));
        }
    }
    return 0;
}

double IterationDist::mgf_minus_one(double lambda) const { return std::expm1(log_mgf(lambda)); }

}  // namespace jobsentry::ckpt
