// `jobsentry watch` option parsing: defaults, where the command starts, and every error message.
#include "catch_compat.hpp"

#include "hang/watch/watch_options.h"

using namespace jobsentry;
using Args = std::vector<std::string>;

TEST_CASE("watch options: defaults", "[watch_options]") {
    auto p = parse_watch_options({"./a"});
    REQUIRE(p.error.empty());
    CHECK_FALSE(p.help);
    const auto& o = p.options;
    CHECK(o.alpha == 0.001);
    CHECK(o.interval_ms == 400);
    CHECK(o.max_interval_ms == 6400);
    CHECK(o.ranks == 10);
    CHECK(o.action == HangAction::kill);
    CHECK(o.report == "jobsentry-report.json");
    CHECK_FALSE(o.verbose);
    CHECK(o.seed == 0);
    CHECK(o.grace_ms == 3000);
    CHECK(o.verify_rounds == 5);
    CHECK(o.command == Args{"./a"});
}

TEST_CASE("watch options: where the command starts", "[watch_options]") {
    struct Row {
        Args args;
        Args command;
        double alpha;
        bool verbose;
    };
    const std::vector<Row> rows{
        {{"--alpha", "0.01", "--", "mpirun", "-np", "4", "./a"}, {"mpirun", "-np", "4", "./a"}, 0.01, false},
        {{"--alpha=0.01", "mpirun", "-np", "4", "./a"}, {"mpirun", "-np", "4", "./a"}, 0.01, false},
        {{"--alpha", "0.01", "mpirun", "-np", "4", "./a"}, {"mpirun", "-np", "4", "./a"}, 0.01, false},
        {{"--verbose", "mpirun"}, {"mpirun"}, 0.001, true},
        {{"-v", "mpirun", "--verbose"}, {"mpirun", "--verbose"}, 0.001, true},
        {{"--", "--alpha", "0.2"}, {"--alpha", "0.2"}, 0.001, false},
        {{"mpirun", "--alpha", "0.2"}, {"mpirun", "--alpha", "0.2"}, 0.001, false},
    };
    for (const auto& row : rows) {
        INFO(Catch::Detail::stringify(row.args));
        auto p = parse_watch_options(row.args);
        CHECK(p.error.empty());
        CHECK(p.options.command == row.command);
        CHECK(p.options.alpha == row.alpha);
        CHECK(p.options.verbose == row.verbose);
    }
}

TEST_CASE("watch options: values are parsed", "[watch_options]") {
    auto p = parse_watch_options({"--interval-ms", "50", "--max-interval-ms=800", "--ranks", "3", "--action",
                                  "report", "--report", "/tmp/r.json", "--seed", "42", "--grace-ms", "0",
                                  "--verify-rounds", "2", "./a", "x"});
    REQUIRE(p.error.empty());
    CHECK(p.options.interval_ms == 50);
    CHECK(p.options.max_interval_ms == 800);
    CHECK(p.options.ranks == 3);
    CHECK(p.options.action == HangAction::report);
    CHECK(p.options.report == "/tmp/r.json");
    CHECK(p.options.seed == 42);
    CHECK(p.options.grace_ms == 0);
    CHECK(p.options.verify_rounds == 2);
    CHECK(p.options.command == Args{"./a", "x"});
}

TEST_CASE("watch options: errors name the option and what it accepts", "[watch_options]") {
    struct Row {
        Args args;
        std::vector<std::string> mentions;
    };
    const std::vector<Row> rows{
        {{"--alpha", "0", "./a"}, {"alpha", "0 < alpha < 0.5"}},
        {{"--alpha", "2", "./a"}, {"alpha", "0 < alpha < 0.5"}},
        {{"--alpha", "0.5", "./a"}, {"alpha", "0 < alpha < 0.5"}},
        {{"--alpha", "abc", "./a"}, {"alpha", "abc", "0 < alpha < 0.5"}},
        {{"--alpha", "-0.1", "./a"}, {"alpha", "0 < alpha < 0.5"}},
        {{"--alpha"}, {"alpha", "missing"}},
        {{"--alp", "0.01", "./a"}, {"alp"}},  // no guessing of abbreviations
        {{"--spin-verify-ms", "-1", "./a"}, {"spin-verify-ms", "0..600000"}},
        {{"--interval-ms", "5", "./a"}, {"interval-ms", "10..60000"}},
        {{"--interval-ms", "8000", "./a"}, {"max-interval-ms", "interval-ms..600000"}},
        {{"--ranks", "0", "./a"}, {"ranks", "1..4096"}},
        {{"--action", "explode", "./a"}, {"action", "explode", "kill", "report"}},
        {{"--report=", "./a"}, {"report"}},
        {{"--grace-ms", "700000", "./a"}, {"grace-ms", "0..600000"}},
        {{"--grace-ms", "-1", "./a"}, {"grace-ms", "0..600000"}},
        {{"--verbose=1", "./a"}, {"verbose"}},
        {{"--verify-rounds", "1", "./a"}, {"verify-rounds", "2..50"}},
        {{"--frobnicate", "./a"}, {"frobnicate"}},
        {{"--alpha", "0.01"}, {"COMMAND"}},
        {{}, {"COMMAND"}},
        {{"--verbose", "--"}, {"COMMAND"}},
    };
    for (const auto& row : rows) {
        INFO(Catch::Detail::stringify(row.args));
        auto p = parse_watch_options(row.args);
        CHECK_FALSE(p.help);
        REQUIRE_FALSE(p.error.empty());
        for (const auto& word : row.mentions) CHECK_THAT(p.error, Catch::Contains(word));
    }
}

TEST_CASE("watch options: --help", "[watch_options]") {
    for (const Args& args : {Args{"--help"}, Args{"-h"}, Args{"--help", "mpirun", "./a"}}) {
        auto p = parse_watch_options(args);
        CHECK(p.help);
        CHECK(p.error.empty());
    }
    const std::string help = watch_help();
    for (const char* word : {"--alpha", "--interval-ms", "--action", "--report", "COMMAND"})
        CHECK_THAT(help, Catch::Contains(word));
}
