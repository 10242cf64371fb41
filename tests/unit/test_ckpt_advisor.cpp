// CheckpointAdvisor (the decision of jobsentry_ckpt_should_checkpoint) and
// its configuration from the job's environment.
#include "catch_compat.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "tools/checkpoint/advisor.h"
#include "tools/checkpoint/young_daly.h"

using namespace jobsentry::ckpt;

namespace {
AdvisorConfig from(const std::map<std::string, std::string>& env, std::vector<std::string>* warnings) {
    return config_from_env(
        [&](const char* name) {
            auto it = env.find(name);
            return it == env.end() ? nullptr : it->second.c_str();
        },
        600, warnings);
}
}  // namespace

TEST_CASE("configuration from the environment") {
    struct Case {
        std::map<std::string, std::string> env;
        double lambda, cost, period;
        size_t warnings;
    };
    const Case cases[] = {
        {{}, 0, 60, 600, 0},  // not under jobsentry: the period
        {{{"JOBSENTRY_CKPT_PERIOD", "10m"}}, 0, 60, 600, 0},
        {{{"JOBSENTRY_CKPT_PERIOD", "20m"}}, 0, 60, 1200, 0},
        {{{"JOBSENTRY_MTBF", "24h"}}, 1 / 86400.0, 60, 600, 0},
        {{{"JOBSENTRY_MTBF", "24h"}, {"SLURM_JOB_NUM_NODES", "128"}}, 128 / 86400.0, 60, 600, 0},
        {{{"JOBSENTRY_MTBF", "24h"}, {"SLURM_NNODES", "4"}}, 4 / 86400.0, 60, 600, 0},
        {{{"JOBSENTRY_MTBF", "24h"}, {"JOBSENTRY_NODES", "2"}, {"SLURM_JOB_NUM_NODES", "128"}}, 2 / 86400.0, 60, 600, 0},
        {{{"JOBSENTRY_MTBF", "24h"}, {"JOBSENTRY_CKPT_COST", "90s"}}, 1 / 86400.0, 90, 600, 0},
        {{{"JOBSENTRY_MTBF", "24"}}, 0, 60, 600, 1},  // no unit: ignored, named
        {{{"JOBSENTRY_MTBF", "0s"}}, 0, 60, 600, 1},
        {{{"JOBSENTRY_MTBF", "1h"}, {"SLURM_JOB_NUM_NODES", "x"}}, 1 / 3600.0, 60, 600, 1},
        {{{"JOBSENTRY_MTBF", "1h"}, {"JOBSENTRY_CKPT_COST", "-5s"}}, 1 / 3600.0, 60, 600, 1},
    };
    for (const Case& c : cases) {
        std::vector<std::string> warnings;
        AdvisorConfig a = from(c.env, &warnings);
        INFO((c.env.empty() ? std::string("(empty)") : c.env.begin()->first + "=" + c.env.begin()->second));
        CHECK(a.lambda == Approx(c.lambda));
        CHECK(a.ckpt_cost_guess_s == c.cost);
        CHECK(a.period_s == c.period);
        CHECK(warnings.size() == c.warnings);
    }
    std::vector<std::string> warnings;
    from({{"JOBSENTRY_MTBF", "24"}}, &warnings);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("JOBSENTRY_MTBF=24 ignored") != std::string::npos);
}

TEST_CASE("without a failure rate the advisor checkpoints every period of work") {
    AdvisorConfig c;
    c.period_s = 10;
    CheckpointAdvisor a(c);
    CHECK_FALSE(a.young_daly());
    for (int i = 0; i < 3; ++i) a.iteration_done(3);
    CHECK_FALSE(a.should_checkpoint());
    a.iteration_done(3);
    CHECK(a.should_checkpoint());
    a.checkpoint_done(1);
    CHECK(a.work_since_checkpoint() == 0);
    CHECK_FALSE(a.should_checkpoint());
}

TEST_CASE("with a failure rate: W_FO first, then W_th from the measured times and cost") {
    AdvisorConfig c;
    c.lambda = failure_rate_from_pfail(1e-2, 55);
    c.ckpt_cost_guess_s = 20;
    c.recovery_s = 5;
    c.downtime_s = 1;
    CheckpointAdvisor a(c);
    CHECK(a.young_daly());
    // Before any iteration: the first-order form with the guessed cost.
    CHECK(a.threshold() == Approx(young_daly_period({c.lambda, 20, 1, 5})));
    // Iterations of Uniform(20, 80) at their quantiles; the measured C (5 s) replaces the guess.
    std::vector<double> times;
    for (int i = 0; i < 1000; ++i) times.push_back(20 + 60 * (i + 0.5) / 1000);
    for (double t : times) a.iteration_done(t);
    a.checkpoint_done(5);
    CHECK(a.checkpoint_cost() == 5);
    double expected = dynamic_threshold({c.lambda, 5, 1, 5}, IterationDist::empirical(times));
    CHECK(a.threshold() == Approx(expected));
    CHECK(a.threshold() == Approx(204.27).margin(0.5));  // the slides' W_th for Uniform(20, 80)
    a.iteration_done(150);
    CHECK_FALSE(a.should_checkpoint());
    a.iteration_done(60);  // 210 ≥ W_th
    CHECK(a.should_checkpoint());
}

TEST_CASE("RecentTimes keeps the last N times") {
    RecentTimes r(3);
    CHECK(r.empty());
    for (double t : {1.0, 2.0, 3.0, 4.0, 5.0}) r.add(t);
    std::vector<double> v = r.values();
    std::sort(v.begin(), v.end());
    CHECK(v == std::vector<double>{3, 4, 5});
}
