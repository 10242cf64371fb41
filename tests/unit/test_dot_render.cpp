// The stack graph beside a report: X.dot always, X.svg drawn by the real
// Graphviz (install-deps.sh installs it: its absence is a failure here), a
// stuck renderer killed, and the report naming what was written.
#include "catch_compat.hpp"
#include "slurp.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "base/as_user.h"
#include "hang/watch/dot_render.h"
#include "hang/model/stack_tree_dot.h"
#include "base/proc_files.h"

using namespace jobsentry;

namespace {

struct TempDir {
    std::string path;
    TempDir() {
        char tmpl[] = "/tmp/jobsentry-dot-XXXXXX";
        REQUIRE(mkdtemp(tmpl) != nullptr);
        path = tmpl;
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::set<std::string> names() const {
        std::set<std::string> out;
        for (const auto& entry : std::filesystem::directory_iterator(path)) out.insert(entry.path().filename());
        return out;
    }
};


Report three_branch_report() {
    Report r;
    r.verdict = "hang";
    const char* inner[] = {"PMPI_Allreduce", "PMPI_Allreduce", "PMPI_Sendrecv", "stuck_in_compute"};
    for (int rank = 0; rank < 4; ++rank) {
        RankReport rr;
        rr.rank = rank;
        Frame top, main_frame;
        top.function = inner[rank];
        main_frame.function = "main";
        rr.frames = {top, main_frame};
        r.ranks.push_back(rr);
    }
    return r;
}

void require_graphviz() {
    INFO("Graphviz is missing: " << kGraphvizDot << " not found; run scripts/install-deps.sh (apt-get install graphviz)");
    REQUIRE(access(kGraphvizDot, X_OK) == 0);
}

}  // namespace

TEST_CASE("render_svg draws a 3-branch tree with the real Graphviz", "[dot_render]") {
    require_graphviz();
    TempDir dir;
    const std::string dot = dir.path + "/tree.dot", svg = dir.path + "/tree.svg";
    REQUIRE(write_file_safely(dot, stack_tree_dot(stack_tree_of(three_branch_report()))).empty());
    REQUIRE(render_svg(kGraphvizDot, dot, svg) == "");
    const std::string text = slurp(svg);
    CHECK_THAT(text, Catch::Contains("<svg"));
    CHECK_THAT(text, Catch::Contains("stuck_in_compute"));
    CHECK_THAT(text, Catch::Contains("PMPI_Sendrecv"));
    CHECK_THAT(text, Catch::Contains("[0&#45;1] (2 ranks)"));  // Graphviz writes '-' as &#45;
    CHECK(dir.names() == std::set<std::string>{"tree.dot", "tree.svg"});  // no temporary left
}

TEST_CASE("render_svg: a failing or stuck renderer leaves no SVG behind", "[dot_render]") {
    TempDir dir;
    const std::string dot = dir.path + "/tree.dot", svg = dir.path + "/tree.svg";
    REQUIRE(write_file_safely(dot, "digraph g {}\n").empty());
    const std::string stuck = dir.path + "/stuck", failing = dir.path + "/failing";
    REQUIRE(write_file_safely(stuck, "#!/bin/sh\necho partial\nexec sleep 30\n").empty());
    REQUIRE(write_file_safely(failing, "#!/bin/sh\necho partial\nexit 4\n").empty());
    chmod(stuck.c_str(), 0755);
    chmod(failing.c_str(), 0755);

    const auto start = std::chrono::steady_clock::now();
    CHECK_THAT(render_svg(stuck, dot, svg, 300), Catch::Contains("took longer than 300 ms and was killed"));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    CHECK_THAT(render_svg(failing, dot, svg, 5000), Catch::Contains("exited with status 4"));
    CHECK_THAT(render_svg(dir.path + "/missing", dot, svg, 5000), Catch::Contains("cannot run"));
    CHECK(dir.names() == std::set<std::string>{"tree.dot", "stuck", "failing"});
}

TEST_CASE("render_svg replaces a planted symlink at the SVG path instead of following it", "[dot_render]") {
    require_graphviz();
    TempDir dir;
    const std::string dot = dir.path + "/tree.dot", svg = dir.path + "/tree.svg", victim = dir.path + "/victim";
    REQUIRE(write_file_safely(dot, "digraph g { precious_not; }\n").empty());
    REQUIRE(write_file_safely(victim, "precious\n").empty());
    REQUIRE(symlink(victim.c_str(), svg.c_str()) == 0);
    REQUIRE(render_svg(kGraphvizDot, dot, svg) == "");
    CHECK(slurp(victim) == "precious\n");
    struct stat st {};
    REQUIRE(lstat(svg.c_str(), &st) == 0);
    CHECK(S_ISREG(st.st_mode));
}

TEST_CASE("write_hang_report names the graph files in the JSON and the text", "[dot_render]") {
    require_graphviz();
    TempDir dir;
    const std::string json = dir.path + "/r.json";
    Report r = three_branch_report();
    REQUIRE(write_hang_report(r, json) == "");
    CHECK(dir.names() == std::set<std::string>{"r.json", "r.txt", "r.dot", "r.svg"});
    const auto j = nlohmann::json::parse(slurp(json));
    CHECK(j["stack_tree_dot"] == dir.path + "/r.dot");
    CHECK(j["stack_tree_svg"] == dir.path + "/r.svg");
    CHECK_FALSE(j.contains("stack_tree_graph_note"));
    CHECK_THAT(slurp(dir.path + "/r.dot"), Catch::Contains("stuck_in_compute\\n[3] (1 rank)"));
    CHECK_THAT(slurp(dir.path + "/r.svg"), Catch::Contains("stuck_in_compute"));
    CHECK_THAT(slurp(dir.path + "/r.txt"), Catch::Contains("drawn:      " + dir.path + "/r.svg"));
}

TEST_CASE("without Graphviz the DOT is still written and the SVG is noted as skipped", "[dot_render]") {
    TempDir dir;
    const std::string json = dir.path + "/r.json";
    REQUIRE(write_file_safely(dir.path + "/r.svg", "<svg>an older run's</svg>\n").empty());
    Report r = three_branch_report();
    write_stack_graph(r, json, dir.path + "/no-such-dot");
    CHECK(r.stack_tree_dot == dir.path + "/r.dot");
    CHECK(r.stack_tree_svg.empty());
    CHECK_THAT(r.stack_tree_graph_note, Catch::Contains("SVG skipped: Graphviz is not installed"));
    REQUIRE(write_report(r, json) == "");
    CHECK(dir.names() == std::set<std::string>{"r.json", "r.txt", "r.dot"});  // the stale SVG is gone
    const auto j = nlohmann::json::parse(slurp(json));
    CHECK(j["stack_tree_dot"] == dir.path + "/r.dot");
    CHECK_FALSE(j.contains("stack_tree_svg"));
    CHECK_THAT(j["stack_tree_graph_note"].get<std::string>(), Catch::Contains("SVG skipped"));
    CHECK_THAT(slurp(dir.path + "/r.txt"), Catch::Contains("graph note: SVG skipped"));
}

TEST_CASE("as the job's user (SlurmJob::hang), the report and its graph belong to the user", "[dot_render]") {
    require_graphviz();
    if (geteuid() != 0) {
        WARN("not root: cannot drop to another user; the Slurm tests cover this path");
        return;
    }
    TempDir dir;
    REQUIRE(chmod(dir.path.c_str(), 01777) == 0);
    const std::string json = dir.path + "/r.json";
    Report r = three_branch_report();
    const UserIdentity nobody{65534, 65534, ""};
    REQUIRE(run_as_user(nobody, [&] { return write_hang_report(r, json); }, kRenderTimeoutMs + 10000) == "");
    for (const char* name : {"r.json", "r.txt", "r.dot", "r.svg"}) {
        struct stat st {};
        REQUIRE(lstat((dir.path + "/" + name).c_str(), &st) == 0);
        CHECK(st.st_uid == 65534u);
    }
    CHECK_THAT(slurp(dir.path + "/r.svg"), Catch::Contains("stuck_in_compute"));
    CHECK(nlohmann::json::parse(slurp(json))["stack_tree_svg"] == dir.path + "/r.svg");
}

TEST_CASE("render_svg: a FIFO or a symlink swapped in at the DOT path is refused, not read", "[dot_render]") {
    TempDir dir;
    const std::string dot = dir.path + "/tree.dot", svg = dir.path + "/tree.svg", real = dir.path + "/real.dot";
    REQUIRE(mkfifo(dot.c_str(), 0600) == 0);  // nobody writes: reading it by name would block
    const auto start = std::chrono::steady_clock::now();
    CHECK_THAT(render_svg(kGraphvizDot, dot, svg, 5000), Catch::Contains("not a regular file"));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
    REQUIRE(unlink(dot.c_str()) == 0);
    REQUIRE(write_file_safely(real, "digraph g {}\n").empty());
    REQUIRE(symlink(real.c_str(), dot.c_str()) == 0);
    CHECK_THAT(render_svg(kGraphvizDot, dot, svg, 5000), Catch::Contains("cannot open " + dot));
    CHECK(dir.names() == std::set<std::string>{"tree.dot", "real.dot"});
}
