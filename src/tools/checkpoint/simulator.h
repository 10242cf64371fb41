// A Monte-Carlo simulator of an n-iteration application under exponential
// failures (rate λ), as in the experiments of Du et al.: failures strike
// during work, checkpoints and recovery, never during downtime; after a
// failure the job waits D, recovers in R and redoes the work since its last
// checkpoint. Strategies are compared on common random numbers: in each run
// every strategy sees the same iteration times and the same failure stream.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tools/checkpoint/iteration_dist.h"
#include "tools/checkpoint/young_daly.h"

namespace jobsentry::ckpt {

// Draws iteration times from an IterationDist (Normal draws are clamped at
// 0; empirical draws resample the observed times).
class IterationSampler {
public:
    explicit IterationSampler(const IterationDist& dist);
    double operator()(std::mt19937_64& rng);

private:
    const IterationDist& dist_;
    std::uniform_real_distribution<double> uniform_;
    std::gamma_distribution<double> gamma_;
    std::normal_distribution<double> normal_;
    std::uniform_int_distribution<size_t> pick_;
};

struct Strategy {
    enum class Kind { every_k, threshold };
    Kind kind = Kind::every_k;
    long k = 1;            // every_k: checkpoint after iterations k, 2k, ... and the last
    double threshold = 0;  // threshold: checkpoint once the work since the last one reaches it
    std::string name;

    static Strategy every(long k, std::string name) { return {Kind::every_k, k, 0, std::move(name)}; }
    static Strategy at_work(double w, std::string name) { return {Kind::threshold, 0, w, std::move(name)}; }
};

struct SimConfig {
    Platform platform;
    IterationDist dist;
    long iterations = 1000;
    long runs = 10000;
    std::uint64_t seed = 1;
};

struct SimResult {
    std::vector<double> mean_makespan;    // per strategy, in the order given
    std::vector<double> median_makespan;  // per strategy
    double mean_failures = 0;             // per run, of the first strategy
    double useful_work = 0;               // mean total iteration time per run
};

SimResult simulate(const SimConfig& config, const std::vector<Strategy>& strategies);

// The four strategies of the paper for this platform and law, in this order:
// static k_static, static k_FO (Young/Daly static), dynamic W_th, dynamic W_FO.
std::vector<Strategy> paper_strategies(const Platform& p, const IterationDist& dist);

// Expected slowdown of the threshold rule by renewal reward over segments:
// (1/λ + D) e^{λR} (e^{λC} E[e^{λW}] − 1) / E[W], with the segment work W
// (first sum of iterations reaching the threshold) sampled `segments` times
// (fewer when a segment holds many iterations, and beyond 2000 iterations per
// segment W = threshold + E[X²]/(2E[X]), the mean overshoot).
double threshold_slowdown(const Platform& p, const IterationDist& dist, double threshold, long segments,
                          std::uint64_t seed);

}  // namespace jobsentry::ckpt
