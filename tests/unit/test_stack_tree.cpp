// Stack tree: merging stacks into a prefix tree, its text/JSON forms and rank-set formatting.
#include "catch_compat.hpp"

#include "hang/model/stack_tree.h"

using namespace jobsentry;

TEST_CASE("three stacks merge into a tree with rank ranges", "[stack_tree]") {
    StackTree t;
    t.add(0, {"PMPI_Allreduce", "solve", "main"});
    t.add(2, {"compute", "solve", "main"});
    t.add(1, {"PMPI_Allreduce", "solve", "main"});
    CHECK(t.root().ranks == std::set<int>{0, 1, 2});
    REQUIRE(t.root().children.size() == 1);
    const auto& main_node = *t.root().children.at("main");
    CHECK(main_node.label == "main");
    const auto& solve = *main_node.children.at("solve");
    CHECK(solve.children.size() == 2);
    CHECK(solve.children.at("PMPI_Allreduce")->ranks == std::set<int>{0, 1});
    CHECK(solve.children.at("compute")->ranks == std::set<int>{2});

    CHECK(t.to_text() ==
          "[0-2] main\n"
          "  [0-2] solve\n"
          "    [0-1] PMPI_Allreduce\n"
          "    [2] compute\n");

    const auto j = t.to_json();
    REQUIRE(j.is_array());
    REQUIRE(j.size() == 1);
    CHECK(j[0]["frame"] == "main");
    CHECK(j[0]["ranks"] == nlohmann::json({0, 1, 2}));
    CHECK(j[0]["children"][0]["children"].size() == 2);
    CHECK(j[0]["children"][0]["children"][0]["frame"] == "PMPI_Allreduce");
    CHECK(j[0]["children"][0]["children"][0]["ranks"] == nlohmann::json({0, 1}));
}

TEST_CASE("empty tree", "[stack_tree]") {
    StackTree t;
    CHECK(t.to_text().empty());
    CHECK(t.to_json() == nlohmann::json::array());
}

TEST_CASE("format_rank_set", "[stack_tree]") {
    const std::vector<std::pair<std::set<int>, std::string>> rows{
        {{}, ""},
        {{4}, "4"},
        {{0, 1}, "0-1"},
        {{0, 2}, "0,2"},
        {{0, 1, 2, 3, 5, 7, 8}, "0-3,5,7-8"},
        {{1, 3, 4, 5, 6, 10}, "1,3-6,10"},
    };
    for (const auto& [set, text] : rows) CHECK(format_rank_set(set) == text);
}
