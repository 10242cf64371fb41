// The supervisor's sampling rate held to a share of the job's CPU on a busy node
// (hang/model/sampling_budget.h).
#include "catch_compat.hpp"

#include "hang/model/sampling_budget.h"

using namespace jobsentry;

namespace {

// A job of `cpus` busy CPUs (local_rate CPU-s/s of them on this node) and a supervisor that spends
// `cost` CPU-seconds per second at stretch 1, fewer when stretched; one round per second for `seconds`.
struct Run {
    SamplingBudget budget;
    double t = 0, supervisor = 0, job = 0, local = 0;
    void go(double seconds, double cost, double job_rate, double local_rate, int cpus) {
        for (double end = t + seconds; t < end; t += 1) {
            supervisor += cost / budget.stretch();
            job += job_rate;
            local += local_rate;
            budget.observe(t, supervisor, job, local, cpus);
        }
    }
};

}  // namespace

TEST_CASE("on a busy node the interval stretches until the supervisor's share is within budget") {
    Run r{SamplingBudget(0.1)};
    // 4 ms of CPU a second against a job of 2 busy CPUs: 0.2 %, twice the budget.
    r.go(SamplingBudget::kFirstWindowSeconds, 0.004, 2, 2, 2);
    CHECK(r.budget.stretch() == 1);  // not judged before a whole first window
    r.go(1, 0.004, 2, 2, 2);
    CHECK(r.budget.stretch() > 1);   // judged after 10 s, not 30: a short job counts too
    r.go(800, 0.004, 2, 2, 2);       // the unslowed first 10 s weigh on the whole run's share for a while
    CHECK(r.budget.full_node());
    CHECK(r.budget.stretch() == Approx(2 / SamplingBudget::kAim).epsilon(0.05));
    CHECK(r.budget.window_share_percent() == Approx(0.1 * SamplingBudget::kAim).epsilon(0.05));
    CHECK(r.budget.seconds_stretched(r.t) > 100);
    // The job's cost grows tenfold: the stretch stops at its cap.
    r.go(200, 0.04, 2, 2, 2);
    CHECK(r.budget.stretch() == SamplingBudget::kMaxStretch);
    CHECK(r.budget.max_stretch_seen() == SamplingBudget::kMaxStretch);
}

TEST_CASE("where the job leaves CPUs idle, or the budget is off, nothing is slowed") {
    Run idle{SamplingBudget(0.1)};
    idle.go(200, 0.004, 1, 1, 4);  // 1 CPU-second a second of 4 CPUs
    CHECK_FALSE(idle.budget.full_node());
    CHECK(idle.budget.stretch() == 1);
    CHECK(idle.budget.seconds_stretched(idle.t) == 0);

    Run unknown{SamplingBudget(0.1)};
    unknown.go(200, 0.004, 2, 2, 0);  // the ranks' CPUs could not be read
    CHECK(unknown.budget.stretch() == 1);

    Run off{SamplingBudget(0)};
    off.go(200, 0.04, 2, 2, 2);
    CHECK(off.budget.stretch() == 1);
    CHECK(off.budget.window_share_percent() < 0);
}

TEST_CASE("the stretch comes back when the node frees up or the cost falls") {
    Run r{SamplingBudget(0.1)};
    r.go(200, 0.008, 2, 2, 2);
    CHECK(r.budget.stretch() == Approx(4).epsilon(0.05));
    r.go(60, 0.008, 2, 0.5, 2);  // the ranks now wait most of the time (local work elsewhere)
    CHECK(r.budget.stretch() == 1);
    r.go(2000, 0.001, 2, 2, 2);  // cheap samples: within budget at full rate, once the dear ones are paid back
    CHECK(r.budget.stretch() == 1);
}

TEST_CASE("the start-up is paid back: the whole run's share is held, not only the last window's") {
    // Half a CPU-second of start-up (every binary's tables read once), then 3 ms a second: 0.15 % of a
    // job of 2 busy CPUs, half again the budget.
    Run r{SamplingBudget(0.1)};
    r.supervisor = 0.5;
    r.go(300, 0.003, 2, 2, 2);
    CHECK(r.budget.whole_share_percent() > 0.1);  // after 300 s the start-up still weighs
    CHECK(r.budget.stretch() == SamplingBudget::kMaxStretch);  // so the sampling stays slowest
    r.go(1600, 0.003, 2, 2, 2);
    CHECK(r.budget.whole_share_percent() <= 0.1);  // paid back: the share the report shows holds
    CHECK(r.budget.stretch() < SamplingBudget::kMaxStretch);  // and the sampling speeds up again
    CHECK(r.budget.stretch() >= 1.5 / SamplingBudget::kAim - 0.2);  // never faster than the budget allows
}
