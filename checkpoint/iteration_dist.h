// The law of an application's iteration times, as the checkpoint arithmetic
// needs it: its mean and the log of its moment generating function
// log E[e^{λX}], in closed form for Uniform, Gamma and Normal (tests, advice)
// and from observed times (empirical). Pure; no I/O.
#pragma once

#include <string>
#include <vector>

namespace jobsentry::ckpt {

enum class DistKind { uniform, gamma, normal, empirical };

const char* to_string(DistKind kind);
// "uniform", "gamma", "normal", "empirical"; false for anything else.
bool parse_dist_kind(const std::string& text, DistKind* out);

struct IterationDist {
    DistKind kind = DistKind::normal;
    double p1 = 0;  // uniform: lower bound a; gamma: shape k; normal: mean μ
    double p2 = 0;  // uniform: upper bound b; gamma: rate β;  normal: sd σ
    std::vector<double> samples;  // empirical only: observed times (s)

    static IterationDist uniform(double a, double b) { return {DistKind::uniform, a, b, {}}; }
    static IterationDist gamma(double shape, double rate) { return {DistKind::gamma, shape, rate, {}}; }
    static IterationDist normal(double mean, double sd) { return {DistKind::normal, mean, sd, {}}; }
    static IterationDist empirical(std::vector<double> times) { return {DistKind::empirical, 0, 0, std::move(times)}; }
    // The distribution of the given kind with this mean and standard deviation
    // (not empirical). Uniform: mean ± sd·√3; Gamma: shape (mean/sd)², rate mean/sd².
    static IterationDist from_moments(DistKind kind, double mean, double sd);

    double mean() const;
    double sd() const;
    // log E[e^{λX}]; +inf where the expectation diverges (Gamma with λ ≥ rate,
    // or overflow). Computed without cancellation for small λ.
    double log_mgf(double lambda) const;
    // E[e^{λX}] − 1 = expm1(log_mgf), the quantity the threshold divides by.
    double mgf_minus_one(double lambda) const;
};

}  // namespace jobsentry::ckpt
