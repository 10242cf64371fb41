// The Young/Daly arithmetic against the tables of Du et al. (ICPP 2020,
// slides 22 and 24):
// n = 1000, μ_D = 50, C = R = 5, D = 1, p_fail = 1e-2, λ = −ln(1−p_fail)/(μ_D+C).
#include "catch_compat.hpp"
#include "paper_platform.h"

#include <cmath>
#include <random>

#include "tools/checkpoint/young_daly.h"

using namespace jobsentry::ckpt;


TEST_CASE("the slides' tables: x_static, k_static, W_th, W_FO") {
    struct Row {
        IterationDist dist;
        double x_static;
        double w_th;
    };
    const Row rows[] = {
        {IterationDist::uniform(20, 80), 4.6097, 204.2743},
        {IterationDist::gamma(25, 0.5), 4.6114, 206.0492},
        {IterationDist::normal(50, 2.5), 4.6122, 206.8876},
    };
    Platform p = paper_platform();
    for (const Row& r : rows) {
        INFO(to_string(r.dist.kind));
        StaticChoice s = static_choice(p, r.dist);
        CHECK(s.x_static == Approx(r.x_static).margin(5e-5));
        CHECK(s.k_static == 5);
        CHECK(s.k_fo_real == Approx(4.6787).margin(5e-5));
        CHECK(s.k_fo == 5);
        CHECK(dynamic_threshold(p, r.dist) == Approx(r.w_th).margin(5e-5));
        CHECK(young_daly_period(p) == Approx(233.9328).margin(5e-5));
    }
}

TEST_CASE("the rates") {
    CHECK(failure_rate(24 * 3600.0, 128) == Approx(128 / 86400.0));
    CHECK(failure_rate_from_pfail(1e-2, 55) == Approx(-std::log(0.99) / 55).epsilon(1e-14));
    // log1p keeps tiny probabilities exact where log(1 − p) would round to 0.
    CHECK(failure_rate_from_pfail(1e-17, 1) == Approx(1e-17).epsilon(1e-12));
}

TEST_CASE("T_λ matches its definition and its small-λ limit W + C") {
    Platform p{1e-4, 5, 1, 5};
    double direct = (1 / p.lambda + p.D) * std::exp(p.lambda * p.R) * (std::exp(p.lambda * (200 + p.C)) - 1);
    CHECK(segment_time(p, 200) == Approx(direct).epsilon(1e-9));
    Platform tiny{1e-15, 5, 1, 5};
    CHECK(segment_time(tiny, 200) == Approx(205).epsilon(1e-9));
}

TEST_CASE("closed-form E[e^{λX}] agrees with the empirical one from many draws") {
    std::mt19937_64 rng(7);
    const double lambda = 2e-3;
    struct Case {
        IterationDist dist;
        std::vector<double> draws;
    };
    std::vector<double> u, g, n;
    std::uniform_real_distribution<double> U(20, 80);
    std::gamma_distribution<double> G(25, 2);  // std takes the scale 1/β
    std::normal_distribution<double> N(50, 2.5);
    for (int i = 0; i < 200000; ++i) {
        u.push_back(U(rng));
        g.push_back(G(rng));
        n.push_back(N(rng));
    }
    const Case cases[] = {{IterationDist::uniform(20, 80), u}, {IterationDist::gamma(25, 0.5), g},
                          {IterationDist::normal(50, 2.5), n}};
    for (const Case& c : cases) {
        INFO(to_string(c.dist.kind));
        IterationDist emp = IterationDist::empirical(c.draws);
        CHECK(emp.log_mgf(lambda) == Approx(c.dist.log_mgf(lambda)).epsilon(2e-3));
        CHECK(emp.mean() == Approx(c.dist.mean()).epsilon(2e-3));
        CHECK(emp.sd() == Approx(c.dist.sd()).epsilon(1e-2));
    }
}

TEST_CASE("from_moments gives the paper's three laws") {
    IterationDist u = IterationDist::from_moments(DistKind::uniform, 50, 30 / std::sqrt(3.0));
    CHECK(u.p1 == Approx(20));
    CHECK(u.p2 == Approx(80));
    IterationDist g = IterationDist::from_moments(DistKind::gamma, 50, 10);
    CHECK(g.p1 == Approx(25));
    CHECK(g.p2 == Approx(0.5));
    IterationDist n = IterationDist::from_moments(DistKind::normal, 50, 2.5);
    CHECK(n.mean() == 50);
    CHECK(n.sd() == 2.5);
}

TEST_CASE("small λ: no cancellation, and the first-order forms are the limit") {
    // λC = 1e-9: log_mgf ≈ λμ must not be lost to 1 + tiny.
    IterationDist d = IterationDist::uniform(20, 80);
    CHECK(d.log_mgf(1e-12) == Approx(50e-12).epsilon(1e-6));
    CHECK(d.mgf_minus_one(1e-12) == Approx(50e-12).epsilon(1e-6));
    Platform p{1e-10, 5, 1, 5};
    double w_fo = young_daly_period(p);
    double w_th = dynamic_threshold(p, d);
    CHECK(std::isfinite(w_th));
    CHECK(w_th / w_fo == Approx(1).epsilon(2e-3));
    StaticChoice s = static_choice(p, d);
    CHECK(s.x_static / s.k_fo_real == Approx(1).epsilon(2e-3));
}

TEST_CASE("k_static is the better of floor and ceil by C_ind") {
    Platform p = paper_platform();
    IterationDist d = IterationDist::gamma(25, 0.5);
    StaticChoice s = static_choice(p, d);
    for (long k : {1L, 2L, 3L, 4L, 6L, 8L, 10L}) {
        INFO("k = " << k);
        CHECK(static_overhead(p, d, s.k_static) < static_overhead(p, d, k));
        CHECK(static_slowdown(p, d, s.k_static) < static_slowdown(p, d, k));
    }
}

TEST_CASE("degenerate inputs give finite answers: checkpoint after every iteration") {
    struct Case {
        const char* what;
        Platform p;
        IterationDist d;
    };
    const Case cases[] = {
        {"C twice the MTBF", {1.0 / 50, 100, 1, 100}, IterationDist::normal(50, 2.5)},
        {"C a hundred MTBFs", {1.0, 100, 0, 0}, IterationDist::uniform(20, 80)},
        {"Gamma MGF diverges (λ ≥ rate)", {1.0, 5, 1, 5}, IterationDist::gamma(25, 0.5)},
        {"empirical overflow", {10.0, 5, 1, 5}, IterationDist::empirical({50, 60, 400})},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        StaticChoice s = static_choice(c.p, c.d);
        CHECK(std::isfinite(s.x_static));
        CHECK(s.x_static < 1);
        CHECK(s.k_static == 1);
        double w = dynamic_threshold(c.p, c.d);
        CHECK(std::isfinite(w));
        CHECK(w < c.d.mean());
        CHECK(std::isfinite(young_daly_period(c.p)));
    }
    CHECK(checkpoint_exceeds_mtbf(cases[0].p));
    CHECK_FALSE(checkpoint_exceeds_mtbf(paper_platform()));
}

TEST_CASE("distribution names") {
    DistKind k;
    CHECK(parse_dist_kind("gamma", &k));
    CHECK(k == DistKind::gamma);
    CHECK(parse_dist_kind("empirical", &k));
    CHECK_FALSE(parse_dist_kind("Gamma", &k));
    CHECK_FALSE(parse_dist_kind("", &k));
}
