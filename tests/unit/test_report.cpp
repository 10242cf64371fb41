// Hang report: JSON keys, the .txt path, and writing files without following planted symlinks.
#include "catch_compat.hpp"
#include "slurp.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "hang/watch/report.h"

using namespace jobsentry;

namespace {

Report sample_report() {
    Report r;
    r.verdict = "hang";
    r.reason = "rank(s) 1 stuck outside MPI while the others wait inside it";
    r.suspect_ranks = {1};
    r.detected_at = 1700000000.5;
    r.samples = 42;
    r.interval_ms = 800;
    r.alpha = 0.001;
    r.command = {"mpirun", "-np", "2", "./a"};
    for (int rank : {0, 1}) {
        RankReport rr;
        rr.rank = rank;
        rr.pid = 1000 + rank;
        rr.activity = rank ? "computing" : "in_mpi";
        Frame inner;
        inner.pc = 0x4010;
        inner.function = rank ? "_Z6kernelv" : "PMPI_Barrier";
        inner.module = rank ? "/home/u/a" : "/usr/lib/libmpi.so.40";
        inner.mpi = rank == 0;
        Frame main_frame;
        main_frame.pc = 0x1000;
        main_frame.function = "main";
        main_frame.module = "/home/u/a";
        rr.frames = {inner, main_frame};
        r.ranks.push_back(rr);
    }
    return r;
}

}  // namespace

TEST_CASE("report_json carries the verdict, ranks and stack tree", "[report]") {
    const auto j = report_json(sample_report());
    for (const char* key : {"verdict", "suspect_ranks", "detected_at", "samples", "interval_ms", "ranks", "stack_tree"})
        CHECK(j.contains(key));
    CHECK(j["verdict"] == "hang");
    CHECK(j["suspect_ranks"] == nlohmann::json({1}));
    CHECK(j["detected_at"] == 1700000000.5);
    CHECK(j["samples"] == 42);
    CHECK(j["interval_ms"] == 800.0);
    REQUIRE(j["ranks"].size() == 2);
    CHECK(j["ranks"][0]["frames"].size() == 2);
    CHECK(j["ranks"][0]["frames"][0]["function"] == "PMPI_Barrier");
    CHECK(j["ranks"][0]["frames"][0]["pc"] == "0x4010");
    CHECK(j["ranks"][0]["frames"][0]["mpi"] == true);
    CHECK(j["ranks"][1]["frames"][0]["function"] == "kernel()");  // demangled
    CHECK(j["stack_tree"][0]["frame"] == "main");
    CHECK(j["stack_tree"][0]["ranks"] == nlohmann::json({0, 1}));
    CHECK(j["stack_tree"][0]["children"].size() == 2);

    Report none;
    CHECK(report_json(none)["detected_at"].is_null());
    CHECK(report_json(none)["verdict"] == "no_hang");
}

TEST_CASE("report_text names the suspects and shows the merged stacks", "[report]") {
    const std::string text = report_text(sample_report());
    CHECK_THAT(text, Catch::Contains("verdict:      hang"));
    CHECK_THAT(text, Catch::Contains("rank 1"));
    CHECK_THAT(text, Catch::Contains("[0-1] main"));
    CHECK_THAT(text, Catch::Contains("[1] kernel()"));
}

TEST_CASE("text_path_for and sibling_path", "[report]") {
    const std::vector<std::pair<std::string, std::string>> rows{
        {"x.json", "x.txt"},
        {"x", "x.txt"},
        {"/tmp/dir.json/report.json", "/tmp/dir.json/report.txt"},
        {"report.JSON", "report.JSON.txt"},
        {".json", ".json.txt"},
    };
    for (const auto& [in, out] : rows) CHECK(text_path_for(in) == out);
    CHECK(sibling_path("/r/x.json", ".svg") == "/r/x.svg");
    CHECK(sibling_path("x", ".dot") == "x.dot");
}

TEST_CASE("write_file_safely replaces a planted symlink instead of following it", "[report]") {
    char tmpl[] = "/tmp/jobsentry-unit-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    const std::string victim = dir + "/victim";
    const std::string path = dir + "/report.json";
    {
        std::ofstream(victim) << "precious\n";
    }
    REQUIRE(symlink(victim.c_str(), path.c_str()) == 0);

    CHECK(write_file_safely(path, "{\"verdict\": \"hang\"}\n").empty());
    CHECK(slurp(victim) == "precious\n");
    struct stat st{};
    REQUIRE(lstat(path.c_str(), &st) == 0);
    CHECK(S_ISREG(st.st_mode));
    CHECK((st.st_mode & 0777) == 0644);
    CHECK(slurp(path) == "{\"verdict\": \"hang\"}\n");

    // write_report puts both forms next to each other.
    CHECK(write_report(sample_report(), path).empty());
    CHECK(nlohmann::json::parse(slurp(path))["verdict"] == "hang");
    CHECK_THAT(slurp(dir + "/report.txt"), Catch::Contains("verdict:      hang"));

    // Nothing else is left behind (no temporary files).
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) names.insert(entry.path().filename());
    CHECK(names == std::set<std::string>{"report.json", "report.txt", "victim"});

    CHECK_FALSE(write_file_safely(dir + "/missing-dir/x.json", "x").empty());
    std::filesystem::remove_all(dir);
}
