// Options of `jobsentry ckpt advise` and the --iter-file format: what is
// accepted, and that every refusal names the value.
#include "catch_compat.hpp"

#include "tools/checkpoint/advise_options.h"

using namespace jobsentry::ckpt;

TEST_CASE("advise options: accepted") {
    AdviseParse p = parse_advise_options({"--mtbf", "24h", "--nodes", "128", "--ckpt-cost", "90s", "--downtime",
                                          "1m", "--iter-mean", "50s", "--iter-sd", "5s", "--dist", "gamma", "--json"});
    REQUIRE(p.error.empty());
    CHECK(p.options.node_mtbf_s == 86400);
    CHECK(p.options.nodes == 128);
    CHECK(p.options.ckpt_cost_s == 90);
    CHECK(p.options.recovery_s == -1);  // defaults to C
    CHECK(p.options.downtime_s == 60);
    CHECK(p.options.have_iterations);
    CHECK(p.options.dist == DistKind::gamma);
    CHECK(p.options.iter_sd_s == 5);
    CHECK(p.options.json);
    AdviseParse f = parse_advise_options({"--mtbf", "24h", "--ckpt-cost", "90s", "--iter-file", "t.txt"});
    REQUIRE(f.error.empty());
    CHECK(f.options.dist == DistKind::empirical);
    CHECK(parse_advise_options({"--help"}).help);
}

TEST_CASE("advise options: refused, naming the value") {
    struct Case {
        std::vector<std::string> extra;  // after --mtbf 24h --ckpt-cost 90s, unless it replaces them
        const char* message;
    };
    const std::vector<std::string> base{"--mtbf", "24h", "--ckpt-cost", "90s"};
    const Case cases[] = {
        {{"--nodes", "0"}, "--nodes 0: accepted values are whole numbers"},
        {{"--nodes", "2.5"}, "--nodes 2.5"},
        {{"--recovery", "soon"}, "--recovery soon: accepted values are durations with a unit"},
        {{"--downtime", "-1s"}, "--downtime -1s"},
        {{"--iter-mean", "50"}, "--iter-mean 50: accepted values are positive durations with a unit"},
        {{"--iter-mean", "0ms"}, "--iter-mean 0ms"},
        {{"--iter-mean", "50s", "--iter-sd", "x"}, "--iter-sd x"},
        {{"--iter-sd", "5s"}, "--iter-sd needs --iter-mean"},
        {{"--iter-mean", "50s", "--dist", "lognormal"}, "--dist lognormal: accepted values are gamma, uniform"},
        {{"--dist", "gamma"}, "--dist needs --iter-mean or --iter-file"},
        {{"--iter-mean", "50s", "--dist", "empirical"}, "--dist empirical needs --iter-file"},
        {{"--iter-mean", "50s", "--iter-sd", "40s", "--dist", "uniform"}, "sd ≤ mean/√3"},
        {{"--iter-mean", "50s", "--iter-file", "f"}, "exclude each other"},
        {{"--bogus"}, "bogus"},
    };
    for (const Case& c : cases) {
        std::vector<std::string> args = base;
        args.insert(args.end(), c.extra.begin(), c.extra.end());
        AdviseParse p = parse_advise_options(args);
        INFO(c.message);
        CHECK(p.error.find(c.message) != std::string::npos);
    }
    CHECK(parse_advise_options({"--ckpt-cost", "90s"}).error.find("--mtbf is required") != std::string::npos);
    CHECK(parse_advise_options({"--mtbf", "1h"}).error.find("--ckpt-cost is required") != std::string::npos);
    CHECK(parse_advise_options({"--mtbf", "1h", "--ckpt-cost", "0s"}).error.find("--ckpt-cost 0s") !=
          std::string::npos);
}

TEST_CASE("iteration files: seconds or durations, comments, the bad line named") {
    std::string error;
    std::vector<double> t = parse_iteration_times("50\n 49.5s # warm\n\n# note\n800ms\r\n", &error);
    CHECK(error.empty());
    CHECK(t == std::vector<double>{50, 49.5, 0.8});
    struct Bad {
        const char* text;
        const char* message;
    };
    for (Bad b : {Bad{"50\n-3\n", "line 2 '-3'"}, Bad{"50\n0\n", "line 2 '0'"}, Bad{"fast\n", "line 1 'fast'"},
                  Bad{"1e3\n", "line 1 '1e3'"}, Bad{"# nothing\n", "no iteration times"}}) {
        INFO(b.text);
        error.clear();
        CHECK(parse_iteration_times(b.text, &error).empty());
        CHECK(error.find(b.message) != std::string::npos);
    }
}
