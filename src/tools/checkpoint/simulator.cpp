#include "tools/checkpoint/simulator.h"

#include <algorithm>
#include <cmath>

namespace jobsentry::ckpt {

IterationSampler::IterationSampler(const IterationDist& dist)
    : dist_(dist),
      uniform_(dist.kind == DistKind::uniform ? dist.p1 : 0, dist.kind == DistKind::uniform ? dist.p2 : 1),
      gamma_(dist.kind == DistKind::gamma ? dist.p1 : 1, dist.kind == DistKind::gamma ? 1 / dist.p2 : 1),
      normal_(dist.kind == DistKind::normal ? dist.p1 : 0, dist.kind == DistKind::normal ? dist.p2 : 1),
      pick_(0, dist.samples.empty() ? 0 : dist.samples.size() - 1) {}

double IterationSampler::operator()(std::mt19937_64& rng) {
    switch (dist_.kind) {
        case DistKind::uniform: return uniform_(rng);
        case DistKind::gamma: return gamma_(rng);
        case DistKind::normal: return std::max(0.0, normal_(rng));
        case DistKind::empirical: return dist_.samples.empty() ? 0 : dist_.samples[pick_(rng)];
    }
    return 0;
}

namespace {

// Time to do `work` and checkpoint it, failures drawn from `rng`: the first
// attempt needs W + C without a failure; after a failure, D (failure-free)
// then R + W + C without one.
double segment(const Platform& p, double work, std::mt19937_64& rng, long* failures) {
    double needed = work + p.C;
    double elapsed = 0;
    for (;;) {
        // Exponential draw by inversion; 1 − u is in (0, 1], so the log is finite.
        double u = std::generate_canonical<double, 53>(rng);
        double to_failure = -std::log1p(-u) / p.lambda;
        if (to_failure >= needed) return elapsed + needed;
        elapsed += to_failure + p.D;
        needed = p.R + work + p.C;
        ++*failures;
    }
}

double run_strategy(const Platform& p, const std::vector<double>& x, const Strategy& s, std::mt19937_64& rng,
                    long* failures) {
    double total = 0, work = 0;
    const long n = static_cast<long>(x.size());
    for (long i = 0; i < n; ++i) {
        work += x[static_cast<size_t>(i)];
        bool last = i + 1 == n;
        bool now = s.kind == Strategy::Kind::every_k ? (i + 1) % s.k == 0 : work >= s.threshold;
        if (now || last) {
            total += segment(p, work, rng, failures);
            work = 0;
        }
    }
    return total;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    auto mid = v.begin() + static_cast<long>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

}  // namespace

SimResult simulate(const SimConfig& config, const std::vector<Strategy>& strategies) {
    SimResult out;
    const size_t ns = strategies.size();
    std::vector<std::vector<double>> makespans(ns, std::vector<double>(static_cast<size_t>(config.runs)));
    std::vector<double> x(static_cast<size_t>(config.iterations));
    IterationSampler draw(config.dist);
    std::mt19937_64 work_rng(config.seed);
    long failures = 0;
    double useful = 0;
    for (long r = 0; r < config.runs; ++r) {
        for (double& xi : x) {
            xi = draw(work_rng);
            useful += xi;
        }
        // The same failure stream for every strategy of this run.
        const std::uint64_t failure_seed = config.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(r);
        for (size_t s = 0; s < ns; ++s) {
            std::mt19937_64 fail_rng(failure_seed);
            long f = 0;
            makespans[s][static_cast<size_t>(r)] = run_strategy(config.platform, x, strategies[s], fail_rng, &f);
            if (s == 0) failures += f;
        }
    }
    for (size_t s = 0; s < ns; ++s) {
        double sum = 0;
        for (double m : makespans[s]) sum += m;
        out.mean_makespan.push_back(sum / static_cast<double>(config.runs));
        out.median_makespan.push_back(median(std::move(makespans[s])));
    }
    out.mean_failures = static_cast<double>(failures) / static_cast<double>(config.runs);
    out.useful_work = useful / static_cast<double>(config.runs);
    return out;
}

std::vector<Strategy> paper_strategies(const Platform& p, const IterationDist& dist) {
    StaticChoice s = static_choice(p, dist);
    return {Strategy::every(s.k_static, "static k_static"), Strategy::every(s.k_fo, "static k_FO (YD)"),
            Strategy::at_work(dynamic_threshold(p, dist), "dynamic W_th"),
            Strategy::at_work(young_daly_period(p), "dynamic W_FO (YD)")};
}

double threshold_slowdown(const Platform& p, const IterationDist& dist, double threshold, long segments,
                          std::uint64_t seed) {
    const double mu = dist.mean();
    const double per_segment = threshold / mu + 1;  // iterations per segment, about
    // Many iterations per segment: W is threshold plus the mean overshoot
    // E[X²]/(2E[X]) with a relative spread that vanishes; sampling would cost
    // per_segment draws per segment for nothing.
    if (per_segment > 2000) {
        double sd = dist.sd();
        double w = threshold + (sd * sd + mu * mu) / (2 * mu);
        return segment_time(p, w) / w;
    }
    // At most about 4 million draws in all.
    segments = std::max(1000L, std::min(segments, static_cast<long>(4e6 / per_segment)));
    std::mt19937_64 rng(seed);
    IterationSampler draw(dist);
    double sum_w = 0, sum_e = 0;  // Σ W and Σ (e^{λW} − 1)
    for (long i = 0; i < segments; ++i) {
        double w = 0;
        do w += draw(rng);
        while (w < threshold);
        sum_w += w;
        sum_e += std::expm1(p.lambda * w);
    }
    double n = static_cast<double>(segments);
    // e^{λC} E[e^{λW}] − 1 = expm1(λC + log1p(E[e^{λW} − 1])).
    double grow = std::expm1(p.lambda * p.C + std::log1p(sum_e / n));
    return (1 / p.lambda + p.D) * std::exp(p.lambda * p.R) * grow / (sum_w / n);
}

}  // namespace jobsentry::ckpt
