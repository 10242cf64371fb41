// The stack tree as DOT: structure, rank sets in labels, the odd branch's colour, escaping and length bounds.
#include "catch_compat.hpp"

#include <regex>

#include "hang/model/stack_tree_dot.h"

using namespace jobsentry;

namespace {

size_t count(const std::string& text, const std::regex& re) {
    return static_cast<size_t>(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

StackTree three_branches() {
    StackTree t;
    for (int rank : {0, 1, 2, 3, 4}) t.add(rank, {"PMPI_Allreduce", "solve", "main"});
    t.add(5, {"PMPI_Sendrecv", "solve", "main"});
    t.add(6, {"nanosleep", "kernel", "solve", "main"});
    return t;
}

}  // namespace

TEST_CASE("stack_tree_dot: one node per frame, edges parent to child", "[stack_tree_dot]") {
    const std::string dot = stack_tree_dot(three_branches());
    CHECK(dot.rfind("digraph stack_tree {\n", 0) == 0);
    CHECK(dot.substr(dot.size() - 2) == "}\n");
    // main, solve, PMPI_Allreduce, PMPI_Sendrecv, kernel, nanosleep: ids by depth-first order, children sorted.
    CHECK(count(dot, std::regex(R"(\n  n\d+ \[label=)")) == 6);
    CHECK(count(dot, std::regex(R"(\n  n\d+ -> n\d+ )")) == 5);
    CHECK_THAT(dot, Catch::Contains("n0 [label=\"main\\n[0-6] (7 ranks)\"]"));
    CHECK_THAT(dot, Catch::Contains("n0 -> n1 [label=\"7\", penwidth=5.0]"));
    CHECK_THAT(dot, Catch::Contains("n2 [label=\"PMPI_Allreduce\\n[0-4] (5 ranks)\"]"));
    CHECK_THAT(dot, Catch::Contains("n1 -> n2 [label=\"5\", penwidth=3.9]"));
    CHECK_THAT(dot, Catch::Contains("n1 -> n3 [label=\"1\", penwidth=1.6]"));
    CHECK_THAT(dot, Catch::Contains("n1 -> n4 [label=\"1\""));
    CHECK_THAT(dot, Catch::Contains("n4 -> n5 [label=\"1\""));
    CHECK_THAT(dot, Catch::Contains("label=\"nanosleep\\n[6] (1 rank)\""));
}

TEST_CASE("stack_tree_dot: the small branches, and all below them, are coloured", "[stack_tree_dot]") {
    const std::string dot = stack_tree_dot(three_branches());
    const std::regex odd(R"(n\d+ \[label="[^"]*", fillcolor="#fdae6b"\])");
    CHECK(count(dot, odd) == 3);  // PMPI_Sendrecv, kernel and nanosleep below it
    CHECK(std::regex_search(dot, std::regex(R"(n3 \[label="PMPI_Sendrecv[^"]*", fillcolor)")));
    CHECK(std::regex_search(dot, std::regex(R"(n5 \[label="nanosleep[^"]*", fillcolor)")));
    CHECK_FALSE(std::regex_search(dot, std::regex(R"(n2 \[label="[^"]*", fillcolor)")));

    // Equal siblings: nobody is the odd one.
    StackTree even;
    even.add(0, {"a", "main"});
    even.add(1, {"b", "main"});
    CHECK(count(stack_tree_dot(even), odd) == 0);
}

TEST_CASE("stack_tree_dot of an empty tree is an empty graph", "[stack_tree_dot]") {
    const std::string dot = stack_tree_dot(StackTree{});
    CHECK(dot.rfind("digraph stack_tree {\n", 0) == 0);
    CHECK(count(dot, std::regex(R"(\bn\d+\b)")) == 0);
}

TEST_CASE("dot_label_text escapes hostile names", "[stack_tree_dot]") {
    CHECK(dot_label_text("a\"b\\c\nd") == "a\\\"b\\\\c\\nd");
    CHECK(dot_label_text("std::map<int, std::string>::at(\"k\") {x|y}") ==
          "std::map<int, std::string>::at(\\\"k\\\") {x|y}");
    CHECK(dot_label_text("tab\there\r\x7f") == "tab?here??");
    CHECK(dot_label_text("\\N \\G") == "\\\\N \\\\G");  // not DOT's node-name escapes
    CHECK(dot_label_text("bad \xff\xc3 utf8 \xc3\xa9") == "bad ?? utf8 \xc3\xa9");

    // In a whole graph: the name stays inside its quoted label.
    StackTree t;
    t.add(0, {"a\"b\\c\nd];\n  evil [label=\"x", "main"});
    const std::string dot = stack_tree_dot(t);
    CHECK_THAT(dot, Catch::Contains("n1 [label=\"a\\\"b\\\\c\\nd];\\n  evil [label=\\\"x\\n[0] (1 rank)\"]"));
    CHECK(count(dot, std::regex("\n")) == 8);  // header 4, two nodes, one edge, the closing brace
}

TEST_CASE("dot_label_text bounds long names in the middle", "[stack_tree_dot]") {
    const std::string name = "void ns::f<" + std::string(300, 'T') + ">(int)";
    const std::string label = dot_label_text(name);
    CHECK(label.size() == 120);
    CHECK(label.rfind("void ns::f<", 0) == 0);
    CHECK(label.substr(label.size() - 6) == ">(int)");
    CHECK_THAT(label, Catch::Contains("TTT...TTT"));
    CHECK(dot_label_text("abcdefgh", 7) == "ab...gh");
    CHECK(dot_label_text("abc", 3) == "abc");
    // Never half a UTF-8 character: \xc3\xa9 is é, two bytes.
    CHECK(dot_label_text("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 7) == "\xc3\xa9...\xc3\xa9");
    // Escaping comes after the bound: a quote is never cut from its backslash.
    const std::string quotes = dot_label_text(std::string(200, '"'));
    CHECK(quotes.size() == 117 * 2 + 3);
}
