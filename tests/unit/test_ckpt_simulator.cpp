// The failure simulator: its makespans agree with the closed form T_λ, its
// failure count with the rate, and (seeded, 10 000 runs) it ranks the
// strategies as the slides' figures do (slides 21, 23, 24).
#include "catch_compat.hpp"
#include "paper_platform.h"

#include <cmath>

#include "tools/checkpoint/simulator.h"

using namespace jobsentry::ckpt;

namespace {
constexpr std::uint64_t kSimulationSeed = 2026;
}  // namespace

TEST_CASE("without failures the makespan is the work plus the checkpoints") {
    Platform p{1e-15, 5, 1, 5};
    IterationDist d = IterationDist::uniform(20, 80);
    SimResult r = simulate({p, d, 1000, 20, kSimulationSeed}, {Strategy::every(5, "k5"), Strategy::every(3, "k3")});
    CHECK(r.mean_failures == 0);
    CHECK(r.mean_makespan[0] == Approx(r.useful_work + 200 * 5).epsilon(1e-9));
    // 1000 = 333·3 + 1: the last iteration is always checkpointed.
    CHECK(r.mean_makespan[1] == Approx(r.useful_work + 334 * 5).epsilon(1e-9));
}

TEST_CASE("simulated static makespans match n/k · E[T_λ]") {
    Platform p = paper_platform();
    for (const IterationDist& d : {IterationDist::uniform(20, 80), IterationDist::gamma(25, 0.5)}) {
        INFO(to_string(d.kind));
        for (long k : {1L, 5L, 10L}) {
            INFO("k = " << k);
            SimResult r = simulate({p, d, 1000, 4000, kSimulationSeed}, {Strategy::every(k, "k")});
            double theory = 1000.0 / static_cast<double>(k) * k * d.mean() * static_slowdown(p, d, k);
            CHECK(r.mean_makespan[0] == Approx(theory).epsilon(2e-3));
            // Failures strike at rate λ during all but the downtime.
            CHECK(r.mean_failures == Approx(p.lambda * (r.mean_makespan[0] - p.D * r.mean_failures)).epsilon(0.03));
        }
    }
}

TEST_CASE("the strategies rank as in the slides (p_fail = 1e-2, 10 000 runs)") {
    Platform p = paper_platform();
    for (const IterationDist& d : {IterationDist::uniform(20, 80), IterationDist::gamma(25, 0.5)}) {
        INFO(to_string(d.kind));
        std::vector<Strategy> s = paper_strategies(p, d);  // k_static, k_FO, W_th, W_FO
        double w = dynamic_threshold(p, d);
        s.push_back(Strategy::every(2, "k=2"));
        s.push_back(Strategy::every(10, "k=10"));
        s.push_back(Strategy::at_work(0.5 * w, "0.5 W_th"));
        s.push_back(Strategy::at_work(2 * w, "2 W_th"));
        SimResult r = simulate({p, d, 1000, 10000, kSimulationSeed}, s);
        const auto& ms = r.mean_makespan;
        // Slide 22: k_static = k_FO = 5, so the two static strategies coincide.
        CHECK(ms[0] == ms[1]);
        // Slide 24: the dynamic threshold beats its first-order form and the static choice.
        CHECK(ms[2] < ms[3]);
        CHECK(ms[2] < ms[0]);
        // Slides 21 and 23: k_static and W_th sit at the bottom of their U-shaped curves.
        CHECK(ms[0] < ms[4]);
        CHECK(ms[0] < ms[5]);
        CHECK(ms[2] < ms[6]);
        CHECK(ms[2] < ms[7]);
        // ... and all within a few per mille of each other (the slides' normalised axes).
        CHECK(ms[2] / ms[1] > 0.99);
    }
}

TEST_CASE("threshold_slowdown: sampled, and the long-segment shortcut agrees with sampling") {
    Platform p = paper_platform();
    IterationDist d = IterationDist::gamma(25, 0.5);
    double w = dynamic_threshold(p, d);
    // The sampled renewal estimate against the simulator's makespan (slide 24: 52267/50000).
    CHECK(threshold_slowdown(p, d, w, 200000, 1) == Approx(52267.0 / 50000).epsilon(5e-4));
    // Iterations of 0.05 s (sd 0.01, mean overshoot E[X²]/2E[X] = 0.026 s): 4000 per segment
    // take the shortcut; 1900 per segment are sampled.
    IterationDist small = IterationDist::gamma(25, 500);
    double shortcut = threshold_slowdown(p, small, 200, 200000, 1);
    double sampled = threshold_slowdown(p, small, 95, 200000, 1);
    CHECK(shortcut == Approx(segment_time(p, 200.026) / 200.026).epsilon(1e-9));
    CHECK(sampled == Approx(segment_time(p, 95.026) / 95.026).epsilon(2e-4));
}
