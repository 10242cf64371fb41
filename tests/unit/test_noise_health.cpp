// Node health at job start (tools/noise/noise_health.h): a baseline read from
// a `jobsentry noise --json` result, and a node judged against it.
#include "catch_compat.hpp"

#include <cmath>

#include "tools/noise/noise_health.h"
#include "tools/noise/noise_report.h"

using namespace jobsentry;

namespace {
ProbeResult node_with(std::initializer_list<double> percents) {
    ProbeResult r;
    int cpu = 0;
    for (double p : percents) {
        PuResult pu;
        pu.cpu = cpu++;
        pu.stats.noise_percent = p;
        r.pus.push_back(pu);
    }
    return r;
}
}  // namespace

TEST_CASE("noise baseline: the median PU of a jobsentry noise --json result", "[noise]") {
    std::string err;
    // The probe's own JSON is accepted as it is written (a PU not measured is skipped).
    ProbeResult reference = node_with({0.4, 0.2, 3.0});
    PuResult broken;
    broken.cpu = 9;
    broken.error = "cannot pin";
    reference.pus.push_back(broken);
    auto b = parse_noise_baseline(noise_json(reference).dump(), &err);
    REQUIRE(b);
    CHECK(b->noise_percent == Approx(0.4));
    CHECK(b->pus == 3);
    b = parse_noise_baseline(R"({"pus":[{"noise_percent":1},{"noise_percent":2}]})", &err);
    REQUIRE(b);
    CHECK(b->noise_percent == Approx(1.5));

    for (const char* bad : {"", "not json", "[]", R"({"pus":3})", R"({"pus":[]})", R"({"pus":[{"cpu":1}]})",
                            R"({"pus":[{"noise_percent":"1"}]})", R"({"pus":[{"noise_percent":-1}]})",
                            R"({"pus":[{"noise_percent":101}]})"}) {
        CAPTURE(bad);
        err.clear();
        CHECK_FALSE(parse_noise_baseline(bad, &err));
        CHECK_THAT(err, Catch::Contains("jobsentry noise --json"));
    }
    err.clear();
    CHECK_FALSE(parse_noise_baseline(std::string(kMaxBaselineBytes + 1, ' '), &err));
    CHECK_THAT(err, Catch::Contains("larger than"));
}

TEST_CASE("node health: NOISY needs the factor and half a point above the baseline", "[noise]") {
    const NoiseBaseline base{1.0, 4, ""};
    NoiseHealth h = judge_node_noise(node_with({0.9, 4.2}), base, 3);
    CHECK(h.measured);
    CHECK(h.noisy);
    CHECK(h.worst_cpu == 1);
    CHECK(h.factor == Approx(4.2));
    CHECK(noise_health_text(h) == "; NOISY 4.2x the site baseline 1.00%");

    h = judge_node_noise(node_with({2.9}), base, 3);  // below the factor
    CHECK_FALSE(h.noisy);
    CHECK(noise_health_text(h) == "; 2.9x the site baseline 1.00%");
    // Ten times a quiet baseline but a tenth of a point: no job feels that.
    h = judge_node_noise(node_with({0.1}), NoiseBaseline{0.01, 2, ""}, 3);
    CHECK(h.factor == Approx(10));
    CHECK_FALSE(h.noisy);
    // A baseline of exactly zero: any real noise is "above" it, named when it is half a point.
    h = judge_node_noise(node_with({0.6}), NoiseBaseline{0, 2, ""}, 3);
    CHECK(std::isinf(h.factor));
    CHECK(h.noisy);
    CHECK(noise_health_text(h) == "; NOISY above the site baseline 0.00%");
    // Nothing measured: nothing said.
    ProbeResult none = node_with({5});
    none.pus[0].error = "cannot pin";
    h = judge_node_noise(none, base, 3);
    CHECK_FALSE(h.measured);
    CHECK_FALSE(h.noisy);
    CHECK(noise_health_text(h).empty());
}

TEST_CASE("a baseline from another processor is not judged against; one that does not say is", "[noise]") {
    ProbeResult reference = node_with({0.4, 0.2});
    reference.cpu_model = "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz";
    std::string err;
    auto base = parse_noise_baseline(noise_json(reference).dump(), &err);
    REQUIRE(base);
    CHECK(base->cpu_model == reference.cpu_model);
    ProbeResult node = node_with({5.0});
    node.cpu_model = "AMD EPYC 7742 64-Core Processor";
    CHECK(baseline_mismatch(*base, node) ==
          "measured on Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz, this node is AMD EPYC 7742 64-Core Processor");
    node.cpu_model = reference.cpu_model;
    CHECK(baseline_mismatch(*base, node).empty());
    node.cpu_model.clear();  // this node's processor unknown: judged as before
    CHECK(baseline_mismatch(*base, node).empty());
    base->cpu_model.clear();  // an older baseline, without cpu_model
    node.cpu_model = "AMD EPYC 7742 64-Core Processor";
    CHECK(baseline_mismatch(*base, node).empty());
    // A cpu_model that is not a short string is refused, naming what is accepted.
    CHECK_FALSE(parse_noise_baseline(R"({"pus":[{"cpu":0,"noise_percent":0.1}],"cpu_model":7})", &err));
    CHECK_THAT(err, Catch::Contains("'cpu_model' is not a string"));
}
