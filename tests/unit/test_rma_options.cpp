// Options of `jobsentry rma-check` (rmacheck/rma_commands.h): table of accepted and refused command lines.
#include "catch_compat.hpp"

#include "tools/rmacheck/rma_commands.h"

using jobsentry::parse_rma_check_options;

TEST_CASE("rma-check options: the command after --, modes, report and trace directory") {
    auto p = parse_rma_check_options({"--precise", "--report", "r.json", "--trace-dir", "t", "--", "mpirun", "-np",
                                      "4", "./app", "--precise"});
    REQUIRE(p.error.empty());
    CHECK(p.options.precise);
    CHECK(p.options.report == "r.json");
    CHECK(p.options.trace_dir == "t");
    // Everything after -- belongs to the command, even options that look like ours.
    CHECK(p.options.command == std::vector<std::string>{"mpirun", "-np", "4", "./app", "--precise"});

    auto d = parse_rma_check_options({"--", "./app"});
    REQUIRE(d.error.empty());
    CHECK_FALSE(d.options.precise);
    CHECK_FALSE(d.options.check_all);  // mode 1 samples hot call sites unless asked
    CHECK(parse_rma_check_options({"--check-all", "--", "./app"}).options.check_all);
    CHECK(d.options.report.empty());
    CHECK(d.options.trace_dir == "jobsentry-rma-traces");
    CHECK(parse_rma_check_options({"--help"}).help);
}

TEST_CASE("rma-check options: misuse is refused with what is accepted") {
    struct Row {
        std::vector<std::string> args;
        const char* message;
    };
    for (const Row& row : {Row{{}, "no program given"}, Row{{"--precise"}, "no program given"},
                           Row{{"--bogus", "--", "x"}, "unrecognised option"},
                           Row{{"--report", "--", "x"}, ""},
                           Row{{"--trace-dir", "", "--", "x"}, "--trace-dir must not be empty"},
                           Row{{"--precise", "--check-all", "--", "x"}, "--check-all is mode 1's"}}) {
        auto p = parse_rma_check_options(row.args);
        CAPTURE(row.args);
        CHECK_FALSE(p.error.empty());
        CHECK(p.error.find(row.message) != std::string::npos);
    }
}

TEST_CASE("rma-check --mpi: auto by default, openmpi and mpich accepted, anything else refused") {
    CHECK(parse_rma_check_options({"--", "./app"}).options.mpi == "auto");
    CHECK(parse_rma_check_options({"--mpi", "mpich", "--", "./app"}).error.empty());
    CHECK(parse_rma_check_options({"--mpi", "openmpi", "--", "./app"}).error.empty());
    auto bad = parse_rma_check_options({"--mpi", "intel", "--", "./app"});
    CHECK(bad.error == "--mpi 'intel': accepted are auto, openmpi and mpich");
}
