// Empirical CDF: cdf and quantile with ties, p = 1 and the 1e-9 value tolerance.
#include "catch_compat.hpp"

#include "hang/model/ecdf.h"

using jobsentry::Ecdf;

TEST_CASE("ecdf cdf and quantile with ties", "[ecdf]") {
    Ecdf e;
    for (double v : {0.5, 0.2, 0.1, 0.2}) e.add(v);
    REQUIRE(e.size() == 4);
    const std::vector<std::pair<double, double>> cdf{{-1, 0},     {0.05, 0},  {0.1, 0.25}, {0.15, 0.25},
                                                     {0.2, 0.75}, {0.3, 0.75}, {0.5, 1.0},  {2.0, 1.0}};
    for (auto [x, f] : cdf) {
        INFO("x=" << x);
        CHECK(e.cdf(x) == Approx(f));
    }
    const std::vector<std::pair<double, double>> quantile{{0.01, 0.1}, {0.25, 0.1}, {0.26, 0.2}, {0.5, 0.2},
                                                          {0.75, 0.2}, {0.76, 0.5}, {1.0, 0.5}};
    for (auto [p, v] : quantile) {
        INFO("p=" << p);
        CHECK(e.quantile(p) == Approx(v));
    }
}

TEST_CASE("ecdf compares values to 1e-9 and handles emptiness", "[ecdf]") {
    Ecdf empty;
    CHECK(empty.cdf(0.5) == 0.0);
    CHECK(empty.quantile(0.5) == 0.0);

    Ecdf e;
    e.add(0.1 + 0.2);  // 0.30000000000000004
    e.add(1.0 / 3);
    CHECK(e.cdf(0.3) == 0.5);
    CHECK(e.cdf(0.2999) == 0.0);
    CHECK(e.quantile(0.5) == Approx(0.3).margin(1e-9));
    CHECK(e.quantile(1.0) == Approx(1.0 / 3).margin(1e-9));
    // S_out fractions from different sample sizes that are equal land on one value.
    e.add(2.0 / 6);
    CHECK(e.cdf(1.0 / 3) == 1.0);
    CHECK(e.quantile(0.34) == Approx(1.0 / 3).margin(1e-9));
}

TEST_CASE("ecdf: a value equal to the threshold is at most it, despite rounding", "[ecdf]") {
    Ecdf f;
    for (int i = 0; i < 10; ++i) f.add(1.0 / 3);
    f.add(1.0);
    const double t = f.quantile(0.5);
    CHECK(Ecdf::at_most(1.0 / 3, t));  // 1/3 is stored rounded down to 1e-9
    CHECK(Ecdf::at_most(1.0 / 9, 1.0 / 9));
    CHECK_FALSE(Ecdf::at_most(2.0 / 3, t));
}
