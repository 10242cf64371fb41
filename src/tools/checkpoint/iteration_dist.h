// The law of an application's iteration times, as the checkpoint arithmetic
// needs it: its mean and the log of its moment generating function
// log E[e^{λX}], in closed form for Uniform, Gamma and Normal (tests, advice)
// and from observed times (empirical). Pure; no I/O.
#pragma once

#include <cstddef>
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

// The last `keep` observed iteration times, a ring: enough for E[e^{λX}],
// following a drifting application, at a bounded cost. Shared by the
// application-side advisor and the supervisor-side signal schedule.
class RecentTimes {
public:
    explicit RecentTimes(size_t keep = 1024) : keep_(keep) {}
    void add(double seconds) {
        if (times_.size() < keep_) times_.push_back(seconds);
        else times_[next_] = seconds;
        next_ = (next_ + 1) % keep_;
    }
    bool empty() const { return times_.empty(); }
    const std::vector<double>& values() const { return times_; }

private:
    size_t keep_;
    size_t next_ = 0;
    std::vector<double> times_;
};

}  // namespace jobsentry::ckpt
