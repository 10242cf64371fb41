// Parsers of the simulator: GOAL files and noise traces name file, line and
// what was expected; `jobsentry simulate` options and their errors.
#include "catch_compat.hpp"

#include <algorithm>
#include <sstream>

#include "tools/simulator/engine.h"
#include "tools/simulator/goal_reader.h"
#include "tools/simulator/noise.h"
#include "tools/simulator/simulate_options.h"

using namespace jobsentry::sim;
using Args = std::vector<std::string>;

TEST_CASE("GOAL: the issue's example parses and runs", "[simulator][goal]") {
    std::istringstream in(R"(num_ranks 4   // comment
rank 0 { lX: send 8b to 3 tag 0; lZ: calc 1000; lZ irequires lX; }
rank 3 {
  lY: recv 8b from 0 tag 0;
  lW: recv 1 from -1 tag 2;   # any source
  lV: calc 5; lV requires lY;
}
rank 1 { a: send 1b to 3 tag 2; }
)");
    Schedule s = read_goal(in, "ok.goal");
    CHECK(s.num_ranks == 4);
    CHECK(s.ops.size() == 6);
    CHECK(s.messages() == 2);
    LogGOPS p;
    SimResult r = simulate(s, p);
    CHECK(r.error.empty());
    CHECK(r.messages == 2);
}

TEST_CASE("GOAL: schedgen's dialect: line ends, unlabeled ops, cpu/nic, any tag, block comments", "[simulator][goal]") {
    std::istringstream in(R"(num_ranks 3

rank 0 {
/* written by schedgen */
l1: send 8b to 1 tag 5 cpu 1 nic 2
l2: calc 100 cpu 1
l2 requires l1
send 4 b to 2 tag 0
}

rank 1 {
l1: recv 8b from 0 tag -1
l3: calc 10
l3 irequires l1
}
rank 2 { r: recv 4b from -1 tag 0 nic 1; }
)");
    Schedule s = read_goal(in, "schedgen.goal");
    REQUIRE(s.ops.size() == 6);
    CHECK(s.messages() == 2);
    CHECK(s.cpus == 2);
    CHECK(s.nics == 3);
    CHECK(s.cpu(0) == 1);
    CHECK(s.nic(0) == 2);
    CHECK(s.ops[0].tag == 5);
    CHECK(s.cpu(1) == 1);
    CHECK(s.nic(1) == 0);
    CHECK(s.ops[2].size == 4);
    CHECK(s.ops[3].tag == kAnyTag);
    CHECK(s.ops[5].peer == kAnySource);
    CHECK(s.nic(5) == 1);
    CHECK(s.succ_begin[1] - s.succ_begin[0] == 1);  // l2 requires l1
    CHECK(s.succ[s.succ_begin[0]] == 1);
    CHECK(s.succ[s.succ_begin[3]] == (4u | kStartEdge));  // l3 irequires l1
}

TEST_CASE("GOAL: both statement ends in one file, and a schedule without placement stores none",
          "[simulator][goal]") {
    std::istringstream in("num_ranks 2\nrank 0 { a: send 1b to 1; b: calc 3\nb requires a\n}\n"
                          "rank 1 {\n  x: recv 1b\n     from 0 tag 0;\n}\n");
    Schedule s = read_goal(in, "mixed.goal");
    CHECK(s.ops.size() == 3);
    CHECK(s.placement.empty());
    CHECK(s.cpus == 1);
    CHECK(s.nics == 1);
}

TEST_CASE("GOAL: lines are counted across the reader's 4 MiB chunks", "[simulator][goal]") {
    std::string text = "num_ranks 2\n/*";
    for (int i = 0; i < 300000; ++i) text += " a comment line that is long enough\n";  // ~10 MiB
    text += "*/\nrank 0 {\nl1: sned 1b to 1\n}\n";  // the comment ends on line 300002
    std::istringstream in(text);
    CHECK_THROWS_WITH(read_goal(in, "big.goal"), Catch::StartsWith("big.goal:300004: expected send, recv or calc, found 'sned'"));
}

TEST_CASE("GOAL: a file of many buffers reads whole, lines counted across every refill", "[simulator][goal]") {
    // The scanner's buffer starts at 1 KiB and doubles: statements, a block
    // comment and a 20 KiB line all cross refills here.
    std::string text = "num_ranks 2\nrank 0 {\n";
    for (int i = 0; i < 3000; ++i) text += "l" + std::to_string(i) + ": calc " + std::to_string(i + 1) + ";\n";
    text += "/* " + std::string(5000, '*') + "\n" + std::string(3000, 'c') + " */\n";
    text += "// " + std::string(20000, 'x') + "\n}\nrank 1 { r: calc 1; }\n";
    const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    std::istringstream in(text);
    CHECK(read_goal(in, "long.goal").ops.size() == 3001);
    std::istringstream bad(text + "rank 7 { }\n");
    CHECK_THROWS_WITH(read_goal(bad, "long.goal"), Catch::StartsWith("long.goal:" + std::to_string(lines + 1) + ": expected a rank 0..1"));
}

TEST_CASE("GOAL: a huge num_ranks costs nothing until ranks are used", "[simulator][goal]") {
    // Found by fuzz_goal: a bit per rank up front made this 2-line file cost 256 MiB.
    std::istringstream in("num_ranks 2147483647\nrank 5 { }\nrank 2147483646 { }\nrank 5 { }\n");
    CHECK_THROWS_WITH(read_goal(in, "big.goal"), Catch::StartsWith("big.goal:4: expected a rank without a block so far"));
}

TEST_CASE("GOAL: errors name the file, the line and what was expected", "[simulator][goal]") {
    struct Row {
        const char* text;
        const char* message;
    };
    for (const Row& row : {
             Row{"rank 0 { }", "bad.goal:1: expected 'num_ranks N' at the start, found 'rank'"},
             Row{"num_ranks 1\n", "bad.goal:1: expected the number of ranks (2 or more), found '1'"},
             Row{"num_ranks 2\nrank 0 {\n l1: sned 8b to 1;\n}", "bad.goal:3: expected send, recv or calc, found 'sned'"},
             Row{"num_ranks 2\nrank 0 {\n l1: send 8b to 5 tag 0;\n}", "bad.goal:3: expected a rank 0..1, found '5'"},
             Row{"num_ranks 2\nrank 0 {\n l1: send 8x to 1;\n}", "bad.goal:3: expected a size in bytes (as in '8b'), found '8x'"},
             Row{"num_ranks 2\nrank 0 {\n l1: send 8b to 1 tag 0 l2\n}",
                 "bad.goal:3: expected 'tag', 'cpu', 'nic', ';' or the end of the line, found 'l2'"},
             Row{"num_ranks 2\nrank 0 {\n l1: calc 5 tag 1\n}", "bad.goal:3: expected 'cpu', 'nic', ';' or the end of the line, found 'tag'"},
             Row{"num_ranks 2\nrank 0 {\n l1: send 8b to 1 cpu 256\n}", "bad.goal:3: expected a number 0..255, found '256'"},
             Row{"num_ranks 2\nrank 0 {\n l1: send 8b to 1 nic\n}", "bad.goal:4: expected a number 0..255, found '}'"},
             Row{"num_ranks 2\nrank 0 {\n l2 requires l1 l3\n}", "bad.goal:3: expected ';' or the end of the line, found 'l3'"},
             Row{"num_ranks 2\nrank 0 {\n/* open\n l1: calc 5\n}", "bad.goal:3: expected '*/' to close the comment that starts here, found '/*'"},
             Row{"num_ranks 2\nrank 0 {\n l1 calc 5\n}", "bad.goal:3: expected ':' after the label, or 'requires'/'irequires', found 'calc'"},
             Row{"num_ranks 2\nrank 0 {\n l1: calc 5;\n l1 requires l9;\n}", "bad.goal:4: expected a label defined in rank 0, found 'l9'"},
             Row{"num_ranks 2\nrank 0 {\n l1: calc 5;\n", "bad.goal:3: expected a statement (as in 'l1: send 8b to 1 tag 0' or 'l2 requires l1') or '}', found the end of the file"},
             Row{"num_ranks 2\nrank 0 { }\nrank 0 { }", "bad.goal:3: expected a rank without a block so far"},
             Row{"num_ranks 2\nrank 2 { }", "bad.goal:2: expected a rank 0..1, found '2'"},
             Row{"num_ranks 2\nrank 0 {\n l1: recv 8b from 0 tag x;\n}", "bad.goal:3: expected a tag 0..2147483647 or -1 (any tag), found 'x'"},
             Row{"num_ranks 2\nrank 0 {\n l1: calc 5;\n l1: calc 6;\n}", "bad.goal:4: expected a label not used before in rank 0, found 'l1'"},
         }) {
        std::istringstream in(row.text);
        INFO(row.text);
        CHECK_THROWS_WITH(read_goal(in, "bad.goal"), Catch::StartsWith(row.message));
    }
    CHECK_THROWS_WITH(read_goal_file("/nonexistent/x.goal"), Catch::Contains("/nonexistent/x.goal: cannot open"));
}

TEST_CASE("noise trace: format, merging, period and errors", "[simulator][noise]") {
    std::istringstream ok("# from jobsentry noise\n100\t50\n120\t40\n\n500\t10\n");
    NoiseTrace t = read_noise_trace(ok, "ok.tsv");
    REQUIRE(t.detours.size() == 2);  // 100+50 and 120+40 overlap: one detour 100..160
    CHECK(t.detours[0].start == 100);
    CHECK(t.detours[0].duration == 60);
    CHECK(t.period == 510);
    std::istringstream with_period("# period_ns 2000\n100\t50\n");
    CHECK(read_noise_trace(with_period, "p.tsv").period == 2000);
    struct Row {
        const char* text;
        const char* message;
    };
    for (const Row& row : {
             Row{"100 50\n", "bad.tsv:1: expected 'start_ns<TAB>duration_ns' (two whole numbers of nanoseconds), found '100 50'"},
             Row{"10\t5\n-3\t4\n", "bad.tsv:2: expected 'start_ns<TAB>duration_ns'"},
             Row{"100\t5\n50\t5\n", "bad.tsv:2: expected detours in order of start time"},
             Row{"# period_ns x\n", "bad.tsv:1: expected '# period_ns N'"},
             Row{"# period_ns 10\n5\t20\n", "bad.tsv:2: period_ns 10 is shorter than the trace"},
             Row{"0\t100\n", "bad.tsv: the detours cover the whole trace"},
         }) {
        std::istringstream in(row.text);
        INFO(row.text);
        CHECK_THROWS_WITH(read_noise_trace(in, "bad.tsv"), Catch::StartsWith(row.message));
    }
}

TEST_CASE("simulate options: defaults and values", "[simulator][options]") {
    SimulateParse p = parse_simulate_options({});
    REQUIRE(p.error.empty());
    CHECK(p.request.collective == "dissemination");
    CHECK(p.request.procs == 16384);
    CHECK(p.request.bytes == 8);
    CHECK(p.request.params.L == 5300);
    CHECK(p.request.params.o == 2300);
    CHECK(p.request.params.g == 2000);
    CHECK(p.request.params.G == 2.5);
    CHECK(p.request.params.O == 1.0);
    CHECK(p.request.params.S == 65536);
    CHECK(p.request.model == Model::jobsentry);
    CHECK_FALSE(p.json);
    p = parse_simulate_options({"--collective", "allreduce-ring", "--procs", "64", "--bytes", "1024", "--L", "10",
                                "--o", "1", "--g", "2", "--G", "0.5", "--O", "0.25", "--S", "0", "--cosched", "--json",
                                "--seed", "9", "--noise-trace", "t.tsv", "--model", "loggopsim"});
    REQUIRE(p.error.empty());
    CHECK(p.request.collective == "allreduce-ring");
    CHECK(p.request.procs == 64);
    CHECK(p.request.bytes == 1024);
    CHECK(p.request.params.L == 10);
    CHECK(p.request.params.o == 1);
    CHECK(p.request.params.g == 2);
    CHECK(p.request.params.G == 0.5);
    CHECK(p.request.params.O == 0.25);
    CHECK(p.request.params.S == 0);
    CHECK(p.request.cosched);
    CHECK(p.request.seed == 9);
    CHECK(p.request.noise_trace == "t.tsv");
    CHECK(p.request.model == Model::loggopsim);
    CHECK(p.json);
    CHECK(parse_simulate_options({"--collective", "schedgen:linear_alltoall"}).error.empty());
    CHECK(parse_simulate_options({"--help"}).help);
    CHECK_THAT(simulate_help(), Catch::Contains("--noise-trace") && Catch::Contains("(=5300)") && Catch::Contains("dissemination"));
}

TEST_CASE("simulate options: bad values name the option and what is accepted", "[simulator][options]") {
    struct Row {
        Args args;
        const char* message;
    };
    for (const Row& row : {
             Row{{"--procs", "1"}, "--procs 1: accepted values are 2..2147483647"},
             Row{{"--procs", "-4"}, "--procs -4: accepted values are 2..2147483647"},
             Row{{"--bytes", "0"}, "--bytes 0: accepted values are 1 or more"},
             Row{{"--L", "-5"}, "--L -5: accepted values are 0..1e15 ns"},
             Row{{"--O=-0.5"}, "--O -0.5: accepted values are 0..1e15 ns"},
             Row{{"--S", "-1"}, "--S -1: accepted values are 0 or more bytes"},
             Row{{"--seed", "-1"}, "--seed -1: accepted values are 0 or more"},
             Row{{"--predict"}, "--predict: needs --noise-trace FILE"},
             Row{{"--collective", "tree"}, "--collective tree: unknown; accepted values are binomial-bcast, binomial-reduce, dissemination"},
             Row{{"--predict", "--noise-trace", "t.tsv", "--model", "loggopsim"},
                 "--predict: predicts with the project's model only; accepted: --model jobsentry"},
             Row{{"--predict", "--noise-trace", "t.tsv", "--write-goal", "x.goal"},
                 "--write-goal: writes the schedule of --collective or --goal; not accepted with --predict"},
             Row{{"--model", "logp"}, "--model logp: unknown; accepted values are jobsentry, loggopsim"},
             Row{{"--frobnicate"}, "unrecognised option '--frobnicate'"},
             Row{{"--procs", "many"}, "the argument ('many') for option '--procs' is invalid"},
         }) {
        INFO(row.args[0]);
        CHECK_THAT(parse_simulate_options(row.args).error, Catch::StartsWith(row.message));
    }
}
