// Noise injection: the trace arithmetic (Noise::advance), a single detour
// propagating through a dissemination barrier, and the mean slowdown of
// periodic noise on a case computed by hand (docs/simulator.md).
#include "catch_compat.hpp"

#include <sstream>

#include "tools/simulator/collectives.h"
#include "tools/simulator/engine.h"
#include "tools/simulator/goal_reader.h"
#include "tools/simulator/noise.h"
#include "tools/simulator/predict.h"
#include "sim_test_params.h"

using namespace jobsentry::sim;

namespace {

NoiseTrace trace(std::vector<Detour> d, Time period) {
    NoiseTrace t;
    t.detours = std::move(d);
    t.period = period;
    return t;
}

}  // namespace

TEST_CASE("noise: CPU work skips the detours of the rank's trace", "[simulator][noise]") {
    // One detour [100, 150) every 1000 ns; rank 0 reads from offset 0, rank 1 from 900.
    Noise n(trace({{100, 50}}, 1000), {0, 900});
    struct Row {
        std::uint32_t rank;
        Time t, work, end;
    };
    for (const Row& r : {Row{0, 0, 50, 50}, Row{0, 0, 100, 100}, Row{0, 0, 101, 151}, Row{0, 120, 10, 160},
                         Row{0, 90, 2000, 90 + 2000 + 3 * 50}, Row{0, 1100, 1, 1151}, Row{1, 0, 200, 200},
                         Row{1, 0, 201, 251}, Row{1, 250, 10, 260}}) {
        INFO("rank " << r.rank << " t " << r.t << " work " << r.work);
        CHECK(n.advance(r.rank, r.t, r.work) == r.end);
    }
    CHECK(Noise().advance(5, 7, 3) == 10);
}

TEST_CASE("noise: one detour on one rank delays a dissemination barrier by its length", "[simulator][noise]") {
    LogGOPS p = small_params(1 << 20);
    for (std::uint32_t P : {2u, 8u, 13u, 64u}) {
        for (Time D : {5ull, 1000ull, 50000ull}) {
            Schedule s = make_collective("dissemination", P, 8);
            Time quiet = simulate(s, p).makespan;
            // Rank 0 starts in a detour of D; every other rank reads the trace
            // far from it (period 10^12 ns), so it sees no noise.
            std::vector<Time> offsets(P, 500000000000ull);
            offsets[0] = 0;
            Noise noise(trace({{0, D}}, 1000000000000ull), offsets);
            INFO("P=" << P << " D=" << D);
            CHECK(simulate(s, p, noise).makespan == quiet + D);
        }
    }
}

TEST_CASE("noise: periodic detours give the hand-computed mean slowdown", "[simulator][noise]") {
    // Rank 0 computes W = k(T-d) with a detour of d every T: from phase phi < d
    // it takes kT - phi, from phi > d exactly kT. Over phases uniform in [0, T)
    // the mean is kT - d^2/(2T); the midpoint grid phi_i = (i + 1/2) T/N gives
    // it exactly when d is a multiple of T/N. T = 1 ms, d = 100 us (1 kHz), k = 3:
    // mean 2 995 000 ns against 2 700 000 ns without noise, slowdown 1.10926.
    const Time T = 1000000, d = 100000, k = 3, N = 100;
    std::istringstream goal("num_ranks 2\nrank 0 { c: calc " + std::to_string(k * (T - d)) + "; }\nrank 1 { }\n");
    Schedule s = read_goal(goal, "periodic.goal");
    Time quiet = simulate(s, small_params(1 << 20)).makespan;
    REQUIRE(quiet == k * (T - d));
    Time sum = 0;
    for (Time i = 0; i < N; ++i) {
        Noise noise(trace({{0, d}}, T), {(2 * i + 1) * T / (2 * N), 0});
        sum += simulate(s, small_params(1 << 20), noise).makespan;
    }
    CHECK(sum / N == k * T - d * d / (2 * T));
    CHECK(sum % N == 0);
    CHECK(static_cast<double>(sum) / N / quiet == Approx(1.10926).epsilon(1e-5));
}

TEST_CASE("noise: seeded offsets are reproducible, co-scheduled noise delays at most once", "[simulator][noise]") {
    LogGOPS p = small_params(1 << 20);
    Schedule s = make_collective("dissemination", 256, 8);
    Time quiet = simulate(s, p).makespan;
    NoiseTrace t = trace({{0, 2000}}, 100000);  // 2 % noise in 2 us detours
    Time a = simulate(s, p, Noise(t, 7, false)).makespan;
    CHECK(simulate(s, p, Noise(t, 7, false)).makespan == a);
    Time cosched = simulate(s, p, Noise(t, 7, true)).makespan;
    CHECK(a > quiet);
    CHECK(cosched <= quiet + 2000);  // all ranks lose the same 2 us at most once in a ~1 us barrier
}

TEST_CASE("noise: predicted slowdowns of a barrier and an allreduce", "[simulator][noise]") {
    PredictOptions opt;
    opt.scales = {64, 256};
    opt.params = small_params(1 << 20);
    nlohmann::json j = predict_noise_slowdown(trace({{0, 2000}}, 20000), opt);  // 10 % noise, 2 us detours
    REQUIRE(j["predictions"].size() == 4);
    CHECK(j["predictions"][0]["collective"] == "dissemination");
    CHECK(j["predictions"][3]["collective"] == "allreduce-recdbl");
    CHECK(j["predictions"][3]["procs"] == 256);
    for (const auto& row : j["predictions"]) {
        CHECK(row["slowdown"].get<double>() > 1.0);
        CHECK(row["makespan_ns"].get<Time>() > row["noise_free_makespan_ns"].get<Time>());
    }
    // Without detours nothing slows down.
    nlohmann::json none = predict_noise_slowdown(NoiseTrace(), opt);
    for (const auto& row : none["predictions"]) CHECK(row["slowdown"].get<double>() == 1.0);
}

TEST_CASE("noise: predicted slowdown of an application's schedule, and of one that deadlocks", "[simulator][noise]") {
    PredictOptions opt;
    opt.params = small_params(1 << 20);
    opt.cosched = true;  // both ranks read the trace from one offset
    std::istringstream app("num_ranks 2\nrank 0 {\nl1: calc 100000\nl2: send 8b to 1 tag 1\nl2 requires l1\n}\n"
                           "rank 1 {\nl1: recv 8b from 0 tag 1\n}\n");
    // 10 % noise in 2 us detours: 100 us of compute loses 10 us, give or take one detour.
    nlohmann::json row = predict_schedule_slowdown(read_goal(app, "app.goal"), "app.goal", trace({{0, 2000}}, 20000), opt);
    CHECK(row["application"] == "app.goal");
    CHECK(row["procs"] == 2);
    const double lost = row["makespan_ns"].get<double>() - row["noise_free_makespan_ns"].get<double>();
    CHECK(lost >= 8000);
    CHECK(lost <= 14000);
    std::istringstream stuck("num_ranks 2\nrank 0 {\nl1: recv 8b from 1 tag 1\n}\nrank 1 {\nl1: recv 8b from 0 tag 1\n}\n");
    nlohmann::json bad = predict_schedule_slowdown(read_goal(stuck, "stuck.goal"), "stuck.goal", trace({{0, 2000}}, 20000), opt);
    CHECK(bad["application"] == "stuck.goal");
    CHECK(!bad["error"].get<std::string>().empty());
}
