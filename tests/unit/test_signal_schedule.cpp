// SignalSchedule: when the supervisor sends the checkpoint signal (W_th or
// P_YD after the last checkpoint's end; a guess when that end is unknown).
#include "catch_compat.hpp"

#include "tools/checkpoint/signal_schedule.h"
#include "tools/checkpoint/young_daly.h"

using namespace jobsentry::ckpt;

namespace {
SignalScheduleConfig paper_config() {
    SignalScheduleConfig c;
    c.lambda = failure_rate_from_pfail(1e-2, 55);
    c.ckpt_cost_guess_s = 5;
    c.recovery_s = 5;
    c.downtime_s = 1;
    return c;
}
}  // namespace

TEST_CASE("without iteration statistics the first signal comes P_YD after the start") {
    SignalScheduleConfig c = paper_config();
    SignalSchedule s(c, 1000);
    CHECK(s.target_work() == Approx(233.9328).margin(1e-3));
    CHECK(s.next_signal_time() == Approx(1000 + 233.9328).margin(1e-3));
}

TEST_CASE("with iteration times the target is W_th, counted from the last checkpoint's end") {
    SignalSchedule s(paper_config(), 0);
    for (int i = 0; i < 1000; ++i) s.iteration_observed(20 + 60 * (i + 0.5) / 1000);  // Uniform(20, 80)
    CHECK(s.target_work() == Approx(204.27).margin(0.5));
    s.signal_sent(204.3);
    s.checkpoint_finished(260, 5);
    CHECK(s.next_signal_time() == Approx(260 + s.target_work()));
}

TEST_CASE("the measured checkpoint cost replaces the guess and moves the target") {
    SignalScheduleConfig c = paper_config();
    c.ckpt_cost_guess_s = 50;
    SignalSchedule s(c, 0);
    double with_guess = s.target_work();
    s.checkpoint_finished(300, 5);
    CHECK(s.checkpoint_cost() == 5);
    CHECK(s.target_work() < with_guess);
    CHECK(s.target_work() == Approx(young_daly_period({c.lambda, 5, 1, 5})));
}

TEST_CASE("a signal whose checkpoint end is never reported: next one after residual + C + target, never a storm") {
    SignalSchedule s(paper_config(), 0);
    for (int i = 0; i < 100; ++i) s.iteration_observed(50);  // fixed 50 s iterations: residual 25 s
    double target = s.target_work();
    s.signal_sent(210);
    CHECK(s.next_signal_time() == Approx(210 + 25 + 5 + target));
    // Even with a tiny target the gap stays at least C + min_gap.
    SignalScheduleConfig fast = paper_config();
    fast.lambda = 10;  // W_th is 0 here
    SignalSchedule f(fast, 0);
    f.iteration_observed(50);
    f.signal_sent(100);
    CHECK(f.next_signal_time() >= 100 + 5 + 1);
}

TEST_CASE("ignores impossible iteration times") {
    SignalSchedule s(paper_config(), 0);
    s.iteration_observed(0);
    s.iteration_observed(-3);
    CHECK(s.target_work() == Approx(233.9328).margin(1e-3));  // still no statistics
}
