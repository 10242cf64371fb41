// ParaStack model: sample-size levels, learning, jittered delay, hang after k suspicions, streaks, interval doubling.
#include "catch_compat.hpp"

#include <cmath>
#include <random>

#include "hang/model/parastack.h"
#include "hang/model/runs_test.h"

using namespace jobsentry;

TEST_CASE("level_for_sample_size table", "[parastack]") {
    struct Row {
        uint64_t n;
        bool present;
        double p_hat, d;
    };
    const std::vector<Row> rows{{0, false, 0, 0},       {10, false, 0, 0},     {11, true, 0.47, 0.3},
                                {18, true, 0.47, 0.3},  {19, true, 0.27, 0.2}, {41, true, 0.27, 0.2},
                                {42, true, 0.12, 0.1},  {85, true, 0.12, 0.1}, {86, true, 0.06, 0.05},
                                {100000, true, 0.06, 0.05}};
    for (const auto& row : rows) {
        INFO("n=" << row.n);
        auto level = level_for_sample_size(row.n);
        REQUIRE(level.has_value() == row.present);
        if (level) {
            CHECK(level->p_hat == row.p_hat);
            CHECK(level->d == row.d);
        }
    }
}

TEST_CASE("the first 11 samples are learnt, the 12th is judged", "[parastack]") {
    ParaStackModel m;
    for (int i = 0; i < 11; ++i) {
        auto j = m.observe(i / 10.0);  // 0.0 .. 1.0
        CHECK(j.learning);
        CHECK_FALSE(j.suspicion);
        CHECK_FALSE(j.hang);
        CHECK(m.history_size() == static_cast<uint64_t>(i + 1));
    }
    // t = F^-1(0.47) = 0.5 (6 of 11 values), F(t) = 6/11, q = 6/11 + 0.3.
    auto j = m.observe(0.9);
    CHECK_FALSE(j.learning);
    CHECK_FALSE(j.suspicion);
    CHECK(j.threshold == Approx(0.5));
    CHECK(j.q == Approx(6.0 / 11 + 0.3));
    CHECK(m.history_size() == 12);
}

TEST_CASE("next_delay is uniform in [I/2, 3I/2)", "[parastack]") {
    for (double interval : {0.4, 1.0, 6.4}) {
        ModelConfig c;
        c.interval_s = interval;
        c.max_interval_s = 2 * interval;
        ParaStackModel m(c);
        std::mt19937_64 rng(12345);
        double lo = 1e9, hi = -1e9, sum = 0;
        const int draws = 20000;
        for (int i = 0; i < draws; ++i) {
            double d = m.next_delay(rng);
            lo = std::min(lo, d);
            hi = std::max(hi, d);
            sum += d;
        }
        INFO("I=" << interval);
        CHECK(lo >= interval / 2);
        CHECK(hi < 1.5 * interval);
        CHECK(lo < interval / 2 + 0.01 * interval);  // the whole range is used
        CHECK(hi > 1.5 * interval - 0.01 * interval);
        CHECK(sum / draws == Approx(interval).epsilon(0.02));
    }
}

namespace {

// 100 samples: 8 x 0.1 then 92 x 0.5. Only the first 11 are unjudged, and no
// judged sample is ever a suspicion (t stays 0.1 < 0.5), so the conditional
// estimate is absent and, at n = 100, t = F^-1(0.06) = 0.1, F(t) = 0.08 and
// q = 0.08 + 0.05 = 0.13.
ParaStackModel model_with_known_q(double alpha) {
    ModelConfig c;
    c.alpha = alpha;
    ParaStackModel m(c);
    for (int i = 0; i < 8; ++i) m.observe(0.1);
    for (int i = 0; i < 92; ++i) REQUIRE_FALSE(m.observe(0.5).suspicion);
    REQUIRE(m.history_size() == 100);
    return m;
}

int expected_k(double q, double alpha) { return static_cast<int>(std::ceil(std::log(alpha) / std::log(q))); }

}  // namespace

TEST_CASE("a hang is claimed after k = ceil(log alpha / log q) suspicions", "[parastack]") {
    const double q = 0.08 + 0.05;
    struct Row {
        double alpha;
        int k;
    };
    // The k column is worked out by hand from q = 0.13 and also checked against the formula.
    const std::vector<Row> rows{{0.05, 2}, {0.01, 3}, {0.001, 4}, {1e-6, 7}};
    for (const auto& row : rows) {
        INFO("alpha=" << row.alpha);
        REQUIRE(expected_k(q, row.alpha) == row.k);
        ParaStackModel m = model_with_known_q(row.alpha);
        int claimed_at = 0;
        for (int k = 1; k <= 20 && !claimed_at; ++k) {
            auto j = m.observe(0.1);  // at t, not below: the lower levels play no part
            REQUIRE_FALSE(j.learning);
            REQUIRE(j.suspicion);
            CHECK(j.threshold == Approx(0.1));
            CHECK(j.q == Approx(q));
            CHECK(j.streak == k);
            CHECK(j.probability == Approx(std::pow(q, k)));
            if (j.hang) claimed_at = k;
        }
        CHECK(claimed_at == row.k);
    }
}

TEST_CASE("correlated suspicions raise q through the conditional estimate", "[parastack]") {
    // Learning: 6 x 0.1, 5 x 0.5. Then 11 runs (0.1, 0.1, 0.5), then 56 x 0.5
    // up to n = 100: F(0.1) = 28/100, marginal q = 0.33. Consecutive pairs
    // starting at <= 0.1: learning gives 5 x (0.1, 0.1) and 1 x (0.1, 0.5),
    // each run 1 x (0.1, 0.1) and 1 x (0.1, 0.5): 16 repeated of 28, so
    // q_c = 16/28 + d(28) = 0.2 = 0.7714; 0.7714^26 = 0.0012, ^27 = 0.0009.
    ModelConfig c;
    c.alpha = 0.001;
    c.long_run_min = 1000;  // the geometric test alone (the long-run bar, 20 here, would come first)
    ParaStackModel m(c);
    for (int i = 0; i < 6; ++i) m.observe(0.1);
    for (int i = 0; i < 5; ++i) m.observe(0.5);
    for (int i = 0; i < 11; ++i) {
        REQUIRE(m.observe(0.1).suspicion);
        REQUIRE(m.observe(0.1).suspicion);
        REQUIRE_FALSE(m.observe(0.5).suspicion);
    }
    for (int i = 0; i < 56; ++i) REQUIRE_FALSE(m.observe(0.5).suspicion);
    REQUIRE(m.history_size() == 100);
    int claimed_at = 0;
    double q = 0;
    for (int k = 1; k <= 40 && !claimed_at; ++k) {
        auto j = m.observe(0.1);
        q = j.q;
        if (j.hang) claimed_at = k;
    }
    CHECK(q == Approx(16.0 / 28 + 0.2));
    CHECK(claimed_at == expected_k(16.0 / 28 + 0.2, 0.001));
    CHECK(claimed_at == 27);
}

TEST_CASE("a streak stays out of the history until it ends", "[parastack]") {
    SECTION("dismiss_streak commits the held samples") {
        ParaStackModel m = model_with_known_q(1e-12);
        for (int k = 1; k <= 5; ++k) {
            CHECK(m.observe(0.0).streak == k);
            CHECK(m.history_size() == 100);
        }
        m.dismiss_streak();
        CHECK(m.history_size() == 105);
        // A new run starts from 1 again.
        CHECK(m.observe(0.0).streak == 1);
        CHECK(m.history_size() == 105);
    }
    SECTION("a non-suspicion ends the streak and commits it with itself") {
        ParaStackModel m = model_with_known_q(1e-12);
        for (int k = 1; k <= 3; ++k) m.observe(0.0);
        CHECK(m.history_size() == 100);
        auto j = m.observe(0.5);
        CHECK_FALSE(j.suspicion);
        CHECK(j.streak == 0);
        CHECK(m.history_size() == 104);
    }
    SECTION("a hang does not teach the model that hanging is normal") {
        ParaStackModel m = model_with_known_q(0.001);
        for (int k = 1; k <= 50; ++k) {
            auto j = m.observe(0.1);
            CHECK(j.q == Approx(0.13));
            CHECK(j.hang == (k >= 4));
        }
        CHECK(m.history_size() == 100);
    }
}

TEST_CASE("a run below t is tested at its own level, Bonferroni over the levels below t", "[parastack]") {
    // 100 samples: 1 x 0, 2 x 0.25, 10 x 0.5, 87 x 1, the low ones isolated
    // (each followed by a 1). At n = 100: t = F^-1(0.06) = 0.5 (F(0.25) = 0.03,
    // F(0.5) = 0.13), so the ParaStack rule at t needs q_t^k <= alpha with
    // q_t >= 0.18. Below t: levels 0 and 0.25, L = 2.
    //   at 0:    q = F(0) + d = 0.01 + 0.05 = 0.06;  2 * 0.06^2 = 0.0072, 2 * 0.06^3 = 0.00043 -> k = 3
    //   at 0.25: q = 0.03 + 0.05 = 0.08;             2 * 0.08^3 = 0.0010 > 0.001, 2 * 0.08^4 = 0.00008 -> k = 4
    // (fewer than 11 pairs start at <= 0.25, so no conditional estimate there).
    auto build = [] {
        ModelConfig c;
        c.alpha = 0.001;
        ParaStackModel m(c);
        std::vector<double> low{0.0, 0.25, 0.25, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5};
        for (int i = 0; i < 100; ++i) m.observe(i % 7 == 3 && i / 7 < 13 ? low[i / 7] : 1.0);
        REQUIRE(m.history_size() == 100);
        return m;
    };
    struct Row {
        double s_out;
        int k;
        double q;
    };
    for (const Row& row : {Row{0.0, 3, 0.06}, Row{0.25, 4, 0.08}}) {
        INFO("S_out held at " << row.s_out);
        ParaStackModel m = build();
        int claimed_at = 0;
        Judgement last;
        for (int k = 1; k <= 20 && !claimed_at; ++k) {
            last = m.observe(row.s_out);
            REQUIRE(last.suspicion);
            CHECK(last.threshold == Approx(0.5));
            CHECK(last.tight_level == Approx(row.s_out));
            CHECK(last.tight_streak == k);
            CHECK(last.tight_q == Approx(row.q));
            CHECK(last.tight_probability == Approx(std::min(1.0, 2 * std::pow(row.q, k))));
            if (last.hang) claimed_at = k;
        }
        CHECK(claimed_at == row.k);
        CHECK(last.probability > 0.001);  // the rule at t alone would not have claimed yet
    }
    SECTION("a run at t itself has no lower level") {
        ParaStackModel m = build();
        auto j = m.observe(0.5);
        CHECK(j.suspicion);
        CHECK(j.tight_level == -1);
        CHECK(j.tight_probability == 1.0);
    }
    SECTION("only the last samples at or below a level count for it") {
        ParaStackModel m = build();
        m.observe(0.0);
        m.observe(0.5);
        auto j = m.observe(0.0);
        CHECK(j.streak == 3);
        CHECK(j.tight_level == 0.0);
        CHECK(j.tight_streak == 1);
    }
}

TEST_CASE("when q would be 1 the sample is learnt and committed", "[parastack]") {
    ParaStackModel m;
    // Constant S_out: t is the largest value seen, F(t) = 1, so q = 1.
    for (int i = 1; i <= 40; ++i) {
        auto j = m.observe(0.5);
        INFO("sample " << i);
        CHECK(j.learning);
        CHECK_FALSE(j.suspicion);
        CHECK_FALSE(j.hang);
        CHECK(j.q == 1.0);
        CHECK(m.history_size() == static_cast<uint64_t>(i));
    }
}

namespace {
// 11 learnt samples, 1 x 1 then 10 x 0.5: at n = 11, t = F^-1(0.47) = 0.5 and
// F(0.5) + d = 10/11 + 0.3 > 1, so q = 1 at t: a run at t proves nothing.
ParaStackModel model_with_q_1_at_t() {
    ParaStackModel m;
    m.observe(1.0);
    for (int i = 0; i < 10; ++i) m.observe(0.5);
    REQUIRE(m.history_size() == 11);
    return m;
}
}  // namespace

TEST_CASE("while q at t is 1 samples are learnt, and q comes down as the healthy job goes on", "[parastack]") {
    ParaStackModel m = model_with_q_1_at_t();
    // Pairs (1, 0.5). Before the 5th pair's 1 is judged, n = 19 (d = 0.2):
    // F(0.5) = 14/19, marginal 0.937; pairs starting <= 0.5: 9 x (0.5, 0.5)
    // and 4 x (0.5, 1), so P(<= 0.5 | previous <= 0.5) = 9/13 + d(13) = 0.3.
    int judged_at = 0;
    Judgement j;
    for (int pair = 1; pair <= 20 && !judged_at; ++pair) {
        j = m.observe(1.0);
        if (!j.learning) {
            judged_at = pair;
            break;
        }
        CHECK(m.history_size() == static_cast<uint64_t>(11 + 2 * pair - 1));  // learnt
        CHECK_FALSE(m.observe(0.5).suspicion);
    }
    CHECK(judged_at == 5);
    CHECK(j.q == Approx(9.0 / 13 + 0.3));
}

TEST_CASE("a hang below t is found while q at t is 1, and is not learnt", "[parastack]") {
    // S_out held at 0, never seen: F(0) = 0, so q_0 = d = 0.3 and L = 1 (no
    // value below t = 0.5 in the history): 0.3^5 = 0.0024 > alpha,
    // 0.3^6 = 0.00073 <= alpha -> claimed at the 6th sample.
    ParaStackModel m = model_with_q_1_at_t();
    int claimed_at = 0;
    for (int k = 1; k <= 40 && !claimed_at; ++k) {
        auto j = m.observe(0.0);
        REQUIRE(j.learning);
        REQUIRE(j.suspicion);
        CHECK(j.q == 1.0);
        CHECK(j.streak == k);
        CHECK(j.tight_level == 0.0);
        CHECK(j.tight_q == Approx(0.3));
        if (j.hang) claimed_at = k;
    }
    CHECK(claimed_at == 6);
    CHECK(m.history_size() == 11);  // the run is held back, not learnt
    m.dismiss_streak();             // verification found progress after all
    CHECK(m.history_size() == 17);
}

TEST_CASE("a hang held exactly at t while q at t is 1 is found as a long run, not learnt for good", "[parastack]") {
    // A start-up phase with every rank in MPI (20 x 0), then a healthy job (1 and 0 alternating):
    // n = 32, t = 0, F(0) + d = 26/32 + 0.2 pins q at 1. A hang then holds S_out at 0, at t itself.
    ParaStackModel m;
    for (int i = 0; i < 20; ++i) m.observe(0.0);
    for (int i = 0; i < 6; ++i) {
        m.observe(1.0);
        m.observe(0.0);
    }
    int alarm_at = 0;
    Judgement j;
    for (int k = 1; k <= 200 && !alarm_at; ++k) {
        j = m.observe(0.0);
        // q at t is 1 until the learnt hang shrinks d (n = 42), then 0.98: q^k would need ~300
        if (k < 18) REQUIRE(j.learning);
        if (j.hang) alarm_at = k;
    }
    // The longest ended run at <= 0 was the start-up's 20 (the last healthy 0 joins this run).
    CHECK(j.long_run);
    CHECK(j.run_bar == 40);
    CHECK(alarm_at == 39);
    // Verification cleared it: the same run must now last twice as long before the next alarm.
    m.dismiss_streak();
    int again_at = 0;
    for (int k = 1; k <= 200 && !again_at; ++k)
        if (m.observe(0.0).hang) again_at = k;
    CHECK(again_at == 40);
}

TEST_CASE("a run that goes on after verification cleared it raises its next alarm at twice its length", "[parastack]") {
    // A deadlock's first alarm cleared (S_out held at 0): its run joins the history and q rises, so
    // the geometric test alone needs 45 more samples here (4x the first run; on a longer cleared run
    // q reaches 1 and it never comes). The run's own bar is twice its length at the clearance.
    ParaStackModel m;
    for (int i = 0; i < 24; ++i) m.observe(i % 3 == 0 ? 0.0 : (i % 3 == 1 ? 0.5 : 1.0));
    int first = 0;
    for (int k = 1; k <= 100 && !first; ++k)
        if (m.observe(0.0).hang) first = k;
    REQUIRE(first == 11);
    m.dismiss_streak();
    int second = 0;
    Judgement j;
    for (int k = 1; k <= 400 && !second; ++k) {
        j = m.observe(0.0);
        if (j.hang) second = k;
    }
    CHECK(j.long_run);
    CHECK(j.run_bar == 2 * first);
    CHECK(second == first);  // the run reaches twice its length at the clearance
}

TEST_CASE("healthy runs at t while q is 1 raise long-run alarms rarely, and never when nothing lies above t",
          "[parastack]") {
    // Always-in-MPI code: S_out 0 four samples in five, geometric runs. Over 5000 samples the bar
    // (twice the longest ended run, 20 at least, doubled after each clearance) is crossed a few times.
    ParaStackModel m;
    std::mt19937_64 rng(7);
    std::bernoulli_distribution outside(0.2);
    int alarms = 0;
    bool in_alarm = false;
    for (int i = 0; i < 5000; ++i) {
        auto j = m.observe(outside(rng) ? 0.25 : 0.0);
        if (j.hang && !in_alarm) {
            ++alarms;
            m.dismiss_streak();  // a healthy job: verification sees its ranks move
        }
        in_alarm = j.hang;
    }
    CHECK(alarms <= 3);
    // Constant S_out: t is the largest value, no run at t can end, no alarm ever.
    ParaStackModel flat;
    for (int i = 0; i < 500; ++i) REQUIRE_FALSE(flat.observe(0.5).hang);
}

TEST_CASE("the runs test doubles the interval up to the cap, never beyond", "[parastack]") {
    struct Row {
        double interval, cap;
        int doublings;
        double final_interval;
    };
    const std::vector<Row> rows{{0.4, 6.4, 4, 6.4}, {0.4, 1.6, 2, 1.6}, {0.4, 1.0, 1, 0.8}, {0.4, 0.4, 0, 0.4}};
    for (const auto& row : rows) {
        INFO("I=" << row.interval << " cap=" << row.cap);
        ModelConfig c;
        c.interval_s = row.interval;
        c.max_interval_s = row.cap;
        ParaStackModel m(c);
        // Blocks of ten 0s and ten 1s: every runs window holds R = 2, far too few runs.
        for (int i = 0; i < 400; ++i) {
            m.observe((i / 10) % 2 ? 1.0 : 0.0);
            CHECK(m.interval() <= row.cap + 1e-9);
        }
        m.dismiss_streak();
        CHECK(m.doublings() == row.doublings);
        CHECK(m.interval() == Approx(row.final_interval));
    }
}

TEST_CASE("a random-looking history keeps the interval", "[parastack]") {
    const std::vector<double> window{0.3, 0.7, 0.6, 0.2, 0.9, 0.1, 0.4, 0.8, 0.55, 0.65,
                                     0.15, 0.35, 0.75, 0.85, 0.25, 0.05, 0.45, 0.95, 0.12, 0.62};
    REQUIRE(runs_test(window).random);
    ParaStackModel m;
    for (int rep = 0; rep < 10; ++rep)
        for (double v : window) m.observe(v);
    m.dismiss_streak();
    CHECK(m.history_size() == 200);
    CHECK(m.doublings() == 0);
    CHECK(m.interval() == Approx(0.4));
}
