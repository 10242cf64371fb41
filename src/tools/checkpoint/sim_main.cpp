// ckpt_sim: the slides' sweeps (p_fail, σ, η) with the failure simulator,
// as markdown tables of makespans normalised by the Young/Daly static one,
// and the simulator's speed. Driven by bench/ckpt_sweep.sh; not installed.
//   ckpt_sim --sweep pfail|sigma|eta|speed [--runs N] [--iterations N] [--seed S]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include <boost/program_options.hpp>

#include "tools/checkpoint/simulator.h"
#include "base/command_line.h"

namespace po = boost::program_options;
using namespace jobsentry::ckpt;

namespace {

struct Run {
    long runs, iterations;
    std::uint64_t seed;
};

// The paper's defaults: μ_D = 50, C = R = η μ_D, D = 1, λ = −ln(1 − p_fail)/(μ_D + C).
Platform platform(double p_fail, double eta) {
    double c = eta * 50;
    return {failure_rate_from_pfail(p_fail, 50 + c), c, 1, c};
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void header(const char* param) {
    std::printf("| law | %s | k_static (x) | k_FO | W_th | W_FO | MS_YD_sta | sta(k_static) | dyn(W_th) | dyn(W_FO) | "
                "failures/run | s |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
                param);
}

void row(const char* law, const std::string& param, const Platform& p, const IterationDist& d, const Run& run) {
    StaticChoice s = static_choice(p, d);
    auto t0 = std::chrono::steady_clock::now();
    SimResult r = simulate({p, d, run.iterations, run.runs, run.seed}, paper_strategies(p, d));
    double sec = seconds_since(t0);
    const auto& ms = r.mean_makespan;  // k_static, k_FO, W_th, W_FO
    std::printf("| %s | %s | %ld (%.3f) | %ld | %.1f | %.1f | %.0f | %.5f | %.5f | %.5f | %.2f | %.2f |\n", law,
                param.c_str(), s.k_static, s.x_static, s.k_fo, dynamic_threshold(p, d), young_daly_period(p), ms[1],
                ms[0] / ms[1], ms[2] / ms[1], ms[3] / ms[1], r.mean_failures, sec);
    std::fflush(stdout);
}

const char* name(DistKind k) { return k == DistKind::uniform ? "Uniform" : k == DistKind::gamma ? "Gamma" : "Normal"; }

// The slides' three laws, all of mean 50: Uniform(20, 80), Gamma(25, 0.5), Normal(50, 2.5).
IterationDist paper_law(DistKind k) {
    return k == DistKind::uniform ? IterationDist::uniform(20, 80)
                                  : k == DistKind::gamma ? IterationDist::gamma(25, 0.5) : IterationDist::normal(50, 2.5);
}

void sweep_pfail(const Run& run) {
    header("p_fail");
    for (DistKind k : {DistKind::uniform, DistKind::gamma, DistKind::normal})
        for (double e : {-3.0, -2.5, -2.0, -1.5, -1.0, -0.5, -0.1}) {
            char param[32];
            std::snprintf(param, sizeof param, "10^%g", e);
            row(name(k), param, platform(std::pow(10, e), 0.1), paper_law(k), run);
        }
}

void sweep_sigma(const Run& run) {
    header("σ");
    struct Point {
        DistKind k;
        double sd;
    };
    for (Point pt : {Point{DistKind::uniform, 5}, {DistKind::uniform, 10}, {DistKind::uniform, 17.32},
                     {DistKind::uniform, 25}, {DistKind::gamma, 5}, {DistKind::gamma, 8}, {DistKind::gamma, 10},
                     {DistKind::gamma, 12}, {DistKind::gamma, 16}, {DistKind::normal, 1}, {DistKind::normal, 2.5},
                     {DistKind::normal, 4}, {DistKind::normal, 5}}) {
        char param[32];
        std::snprintf(param, sizeof param, "%g", pt.sd);
        row(name(pt.k), param, platform(1e-2, 0.1), IterationDist::from_moments(pt.k, 50, pt.sd), run);
    }
}

void sweep_eta(const Run& run) {
    header("η = C/μ_D");
    for (double eta : {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}) {
        char param[32];
        std::snprintf(param, sizeof param, "%.1f", eta);
        row("Gamma", param, platform(1e-2, eta), paper_law(DistKind::gamma), run);
    }
}

// Time of one sweep point, one strategy and the paper's four, median of 5.
void speed(const Run& run) {
    std::printf("| law | strategies | runs × iterations | median s (of 5) | min s | ns per iteration·strategy |\n"
                "|---|---|---|---|---|---|\n");
    for (DistKind k : {DistKind::uniform, DistKind::gamma, DistKind::normal}) {
        Platform p = platform(1e-2, 0.1);
        IterationDist d = paper_law(k);
        for (size_t n : {size_t{1}, size_t{4}}) {
            std::vector<Strategy> s = paper_strategies(p, d);
            s.resize(n);
            std::vector<double> t;
            for (int i = 0; i < 5; ++i) {
                auto t0 = std::chrono::steady_clock::now();
                simulate({p, d, run.iterations, run.runs, run.seed + static_cast<std::uint64_t>(i)}, s);
                t.push_back(seconds_since(t0));
            }
            std::sort(t.begin(), t.end());
            std::printf("| %s | %zu | %ld × %ld | %.3f | %.3f | %.1f |\n", name(k), n, run.runs, run.iterations, t[2],
                        t[0], t[2] * 1e9 / (static_cast<double>(run.runs * run.iterations) * static_cast<double>(n)));
            std::fflush(stdout);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::string sweep;
    Run run{10000, 1000, 1};
    po::options_description desc("Options of ckpt_sim");
    desc.add_options()("help,h", "print this help")("sweep", po::value(&sweep)->required(),
                                                    "pfail, sigma, eta or speed")(
        "runs", po::value(&run.runs)->default_value(run.runs), "simulated runs per point")(
        "iterations", po::value(&run.iterations)->default_value(run.iterations), "iterations per run")(
        "seed", po::value(&run.seed)->default_value(run.seed), "seed of the first point");
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(argc, argv).options(desc).style(jobsentry::command_line_style()).run(), vm);
        if (vm.count("help")) {
            std::cout << desc;
            return 0;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "ckpt_sim: " << e.what() << '\n';
        return 2;
    }
    if (run.runs < 1 || run.iterations < 1) {
        std::cerr << "ckpt_sim: --runs and --iterations must be at least 1\n";
        return 2;
    }
    if (sweep == "pfail") sweep_pfail(run);
    else if (sweep == "sigma") sweep_sigma(run);
    else if (sweep == "eta") sweep_eta(run);
    else if (sweep == "speed") speed(run);
    else {
        std::cerr << "ckpt_sim: --sweep " << sweep << ": accepted values are pfail, sigma, eta, speed\n";
        return 2;
    }
    return 0;
}
