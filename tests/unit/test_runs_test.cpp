// Wald–Wolfowitz runs test: the ParaStack slide example, exact probabilities, edge sequences.
#include "catch_compat.hpp"

#include <numeric>
#include <vector>

#include "hang/model/runs_test.h"

using jobsentry::runs_probability;
using jobsentry::runs_test;

TEST_CASE("runs test reproduces the ParaStack slide example", "[runs]") {
    const std::vector<double> seq{0.2, 0.1, 0.1, 0.2, 0.1, 0.1, 0.0, 0.0, 0.8, 0.9, 1.0, 0.8, 0.9, 0.1, 0.9, 0.9};
    REQUIRE(std::accumulate(seq.begin(), seq.end(), 0.0) / seq.size() == Approx(0.44375));
    const auto r = runs_test(seq);
    CHECK(r.n_plus == 7);
    CHECK(r.n_minus == 9);
    CHECK(r.runs == 4);
    CHECK(r.lower == 4);
    CHECK(r.upper == 14);
    CHECK(r.applicable);
    CHECK_FALSE(r.random);
}

TEST_CASE("runs probabilities over all r sum to 1", "[runs]") {
    const std::vector<std::pair<int, int>> sizes{{1, 1}, {2, 2}, {7, 9}, {10, 10}, {3, 12}, {20, 5}, {40, 40}};
    for (auto [n1, n2] : sizes) {
        double sum = 0;
        for (int r = 0; r <= n1 + n2 + 1; ++r) sum += runs_probability(r, n1, n2);
        INFO("n1=" << n1 << " n2=" << n2);
        CHECK(sum == Approx(1.0).epsilon(1e-9));
    }
}

TEST_CASE("runs probabilities match hand-counted arrangements", "[runs]") {
    // AABB: the 6 arrangements split 2/2/2 over R = 2, 3, 4.
    CHECK(runs_probability(2, 2, 2) == Approx(1.0 / 3));
    CHECK(runs_probability(3, 2, 2) == Approx(1.0 / 3));
    CHECK(runs_probability(4, 2, 2) == Approx(1.0 / 3));
    CHECK(runs_probability(5, 2, 2) == 0.0);
    CHECK(runs_probability(1, 2, 2) == 0.0);
    CHECK(runs_probability(2, 1, 1) == Approx(1.0));
    CHECK(runs_probability(2, 0, 3) == 0.0);
}

TEST_CASE("runs test on characteristic sequences", "[runs]") {
    struct Row {
        const char* name;
        std::vector<double> seq;
        bool applicable;
        bool random;
    };
    std::vector<double> alternating, blocks;
    for (int i = 0; i < 20; ++i) alternating.push_back(i % 2);
    for (int i = 0; i < 20; ++i) blocks.push_back(i < 10 ? 0.0 : 1.0);
    const std::vector<Row> rows{
        {"alternating: too many runs", alternating, true, false},
        {"two blocks: too few runs", blocks, true, false},
        {"constant: no evidence", std::vector<double>(20, 0.5), false, true},
        {"empty", {}, false, true},
        {"hand-picked random", {0.3, 0.7, 0.6, 0.2, 0.9, 0.1, 0.4, 0.8, 0.55, 0.65, 0.15, 0.35, 0.75, 0.85, 0.25, 0.05,
                                0.45, 0.95, 0.12, 0.62},
         true, true},
    };
    for (const auto& row : rows) {
        INFO(row.name);
        const auto r = runs_test(row.seq);
        CHECK(r.applicable == row.applicable);
        CHECK(r.random == row.random);
    }
    const auto alt = runs_test(alternating);
    CHECK(alt.runs == 20);
    CHECK(alt.runs >= alt.upper);
    // Values equal to the mean are dropped: 0 0.5 1 0.5 0 0.5 1 counts as - + - +.
    const auto eq = runs_test({0, 0.5, 1, 0.5, 0, 0.5, 1});
    CHECK(eq.n_plus == 2);
    CHECK(eq.n_minus == 2);
    CHECK(eq.runs == 4);
    const auto blk = runs_test(blocks);
    CHECK(blk.runs == 2);
    CHECK(blk.runs <= blk.lower);
}
