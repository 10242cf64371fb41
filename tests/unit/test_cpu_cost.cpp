// The supervisor's CPU accounting (hang/sampler/cpu_cost.h) and how the report shows it.
#include "catch_compat.hpp"

#include "hang/sampler/cpu_cost.h"
#include "hang/watch/report.h"
#include "slurm/annotation.h"

using namespace jobsentry;

TEST_CASE("a step tally counts, sums and keeps the largest") {
    StepTally t;
    CHECK(t.mean_s() == 0);
    t.add(0.002);
    t.add(0.004);
    t.add(0.000);
    CHECK(t.count == 3);
    CHECK(t.total_s == Approx(0.006));
    CHECK(t.max_s == Approx(0.004));
    CHECK(t.mean_s() == Approx(0.002));
    t.add(-1e-6);  // a clock read out of order counts the step, not a negative time
    CHECK(t.count == 4);
    CHECK(t.total_s == Approx(0.006));
}

TEST_CASE("CPU costs merge step by step") {
    CpuCost sampler, watcher;
    sampler.add(CostStep::unwind, 0.001);
    sampler.add(CostStep::unwind, 0.003);
    watcher.add(CostStep::model, 0.0005);
    watcher.add(CostStep::unwind, 0.002);
    sampler.merge(watcher);
    CHECK(sampler[CostStep::unwind].count == 3);
    CHECK(sampler[CostStep::unwind].total_s == Approx(0.006));
    CHECK(sampler[CostStep::unwind].max_s == Approx(0.003));
    CHECK(sampler[CostStep::model].count == 1);
    CHECK(sampler[CostStep::verification].count == 0);
    CHECK(std::string(to_string(CostStep::stop_copy)) == "stop_copy");
}

TEST_CASE("the job's CPU keeps each process's largest reading, a reused pid apart") {
    JobCpuTally job;
    job.observe("", 100, 5, 300);
    job.observe("", 100, 5, 250);  // an older reading, taken earlier and reported later
    job.observe("", 101, 5, 700);
    job.observe("", 100, 9, 40);   // pid 100 again: another process
    job.observe("n2", 100, 5, 60);  // same pid and start on another node
    CHECK(job.total_ticks() == 300 + 700 + 40 + 60);
}

TEST_CASE("the share is the supervisor's CPU over the job's, in percent") {
    CHECK(cpu_share_percent(0.83, 386) == Approx(0.215).epsilon(0.01));
    CHECK(cpu_share_percent(1, 0) == 0);
    CHECK(cpu_share_summary(0.83, 386) == "supervisor CPU 0.83 s, 0.215 % of the job's 386 s");
    CHECK_THAT(cpu_share_summary(0.5, 0), Catch::Contains("unknown"));
}

TEST_CASE("the report carries the cost in JSON and text") {
    Report r;
    r.samples = 2;
    r.supervisor_cpu_s = 0.5;
    r.job_cpu_s = 200;
    r.cpu_cost.add(CostStep::stop_copy, 40e-6);
    r.cpu_cost.add(CostStep::stop_copy, 60e-6);
    r.cpu_cost.add(CostStep::model, 10e-6);
    r.cpu_cost.add(CostStep::slow, 30e-6);
    const auto json = report_json(r);
    const auto& cost = json.at("supervisor_cost");
    CHECK(cost.at("supervisor_cpu_s").get<double>() == Approx(0.5));
    CHECK(cost.at("job_cpu_s").get<double>() == Approx(200));
    CHECK(cost.at("share_percent").get<double>() == Approx(0.25));
    CHECK(cost.at("steps").at("stop_copy").at("count").get<uint64_t>() == 2);
    CHECK(cost.at("steps").at("stop_copy").at("total_ms").get<double>() == Approx(0.1));
    CHECK(cost.at("steps").at("stop_copy").at("mean_us").get<double>() == Approx(50));
    CHECK(cost.at("steps").at("stop_copy").at("max_us").get<double>() == Approx(60));
    CHECK(cost.at("steps").at("verification").at("count").get<uint64_t>() == 0);
    CHECK(cost.at("steps").at("slow").at("count").get<uint64_t>() == 1);  // apart from the model's
    CHECK(cost.at("steps").at("model").at("total_ms").get<double>() == Approx(0.01));
    CHECK(cost.at("steps").at("slow").at("total_ms").get<double>() == Approx(0.03));
    const std::string text = report_text(r);
    CHECK_THAT(text, Catch::Contains("Watching cost: supervisor CPU 0.50 s, 0.250 % of the job's 200 s"));
    CHECK_THAT(text, Catch::Contains("  stop_copy           2          0.1        50.0        60.0"));
}

TEST_CASE("the end annotation adds the supervisor's share when the job's CPU is known") {
    Report r;
    r.samples = 57;
    CHECK(end_annotation(r) == "jobsentry: no hang; 57 samples");
    r.supervisor_cpu_s = 0.83;
    r.job_cpu_s = 386;
    CHECK(end_annotation(r) == "jobsentry: no hang; 57 samples; supervisor CPU 0.215 % of the job");
    r.supervisor_cpu_s = 1e12;  // absurd figures stay one bounded clause
    CHECK(end_annotation(r).size() <= kMaxAnnotation);
}
