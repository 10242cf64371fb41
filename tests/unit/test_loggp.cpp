// `jobsentry loggp`'s fit recovers known L, o, g, G, O from measurements made
// by the model's own formulas; its options and `simulate --params FILE`.
#include "catch_compat.hpp"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "tools/loggp/loggp_fit.h"
#include "tools/loggp/loggp_options.h"
#include "tools/simulator/params_file.h"
#include "tools/simulator/simulate_options.h"

using namespace jobsentry;
using Args = std::vector<std::string>;

namespace {

struct Truth {
    double L, o_s, o_r, g, G, O_s, O_r;
};

// Samples of one size as the model predicts them, `reps` each, with every
// fifth sample a large outlier (a time slice lost) that the medians ignore.
loggp::SizeSamples synthetic(const Truth& t, std::uint64_t s, int n, int reps) {
    const double x = static_cast<double>(s - 1);
    const double o = (t.o_s + t.o_r) / 2, O = (t.O_s + t.O_r) / 2;
    const double rtt = 2 * (t.L + 2 * o + x * std::max(O, t.G));
    loggp::SizeSamples m;
    m.bytes = s;
    m.burst_n = n;
    for (int r = 0; r < reps; ++r) {
        const double spike = r % 5 == 4 ? 4e6 : 0;
        m.rtt.push_back(rtt + spike);
        m.burst.push_back(rtt + (n - 1) * (t.g + x * t.G) + spike);
        m.send.push_back(t.o_s + x * t.O_s + spike);
        m.recv.push_back(t.o_r + x * t.O_r + spike);
        m.delayed.push_back(rtt + (n - 1) * (1500 + t.o_s + x * t.O_s) + spike);
    }
    m.delay = 1500;
    return m;
}

}  // namespace

TEST_CASE("loggp: the fit recovers the parameters the measurements were made from", "[loggp]") {
    const Truth cases[] = {
        {5300, 2300, 2300, 2000, 2.5, 1.0, 1.0},   // Odin (the simulator's defaults)
        {150, 120, 200, 300, 0.08, 0.05, 0.11},    // shared memory: O_s != O_r
        {2500, 1500, 1500, 1000, 6, 0, 0},         // the issue's LogGOPSim run, O = 0
        {900, 400, 350, 1100, 0.3, 0.9, 0.7},      // O > G: the round trip follows O
    };
    for (const Truth& t : cases) {
        std::vector<loggp::SizeSamples> m;
        for (std::uint64_t s : {1, 64, 1024, 4096, 65536}) m.push_back(synthetic(t, s, 16, 21));
        const loggp::LogGPFit f = loggp::fit_loggp(m);
        CAPTURE(t.L, t.o_s, t.o_r, t.g, t.G);
        CHECK(f.L == Approx(t.L).margin(1e-6));
        CHECK(f.o == Approx((t.o_s + t.o_r) / 2).margin(1e-6));
        CHECK(f.g == Approx(t.g).margin(1e-6));
        CHECK(f.G == Approx(t.G).margin(1e-9));
        CHECK(f.O == Approx((t.O_s + t.O_r) / 2).margin(1e-9));
        CHECK(f.send_line.intercept == Approx(t.o_s).margin(1e-6));
        CHECK(f.recv_line.slope == Approx(t.O_r).margin(1e-9));
        CHECK(f.notes.empty());
        REQUIRE(f.rows.size() == 5);
        CHECK(f.rows[1].gap == Approx(t.g + 63 * t.G));
        CHECK(f.rows[1].has_prtt);
        CHECK(f.rows[1].send_prtt == Approx(t.o_s + 63 * t.O_s));  // Netgauge's o_s agrees with the call time
        const sim::LogGOPS p = loggp::to_params(f);
        CHECK(p.L == static_cast<sim::Time>(std::llround(t.L)));
        CHECK(p.G == Approx(t.G));
    }
}

TEST_CASE("loggp: a protocol bump in the middle sizes and unsorted sizes leave the fit alone", "[loggp]") {
    // Slopes come from the larger half of the sizes, constants from the smallest:
    // middle sizes costing 700 ns more each (another protocol) change nothing.
    const Truth t{150, 120, 200, 300, 0.08, 0.05, 0.11};
    std::vector<loggp::SizeSamples> m;
    for (std::uint64_t s : {65536, 64, 1, 16384, 1024, 4096}) {
        loggp::SizeSamples one = synthetic(t, s, 8, 5);
        if (s == 64 || s == 1024)
            for (auto* v : {&one.rtt, &one.burst, &one.send, &one.recv})
                for (double& x : *v) x += 700;
        m.push_back(one);
    }
    const loggp::LogGPFit f = loggp::fit_loggp(m);
    CHECK(f.rows.front().bytes == 1);
    CHECK(f.rows.back().bytes == 65536);
    CHECK(f.L == Approx(150));
    CHECK(f.o == Approx(160));
    CHECK(f.g == Approx(300));
    CHECK(f.G == Approx(0.08));
    CHECK(f.O == Approx(0.08));
    CHECK(f.notes.empty());
    // One size: constants only, and a note.
    const loggp::LogGPFit one = loggp::fit_loggp({synthetic(t, 1, 8, 5)});
    CHECK(one.G == 0);
    CHECK(one.o == Approx(160));
    REQUIRE(one.notes.size() == 1);
    CHECK_THAT(one.notes[0], Catch::Contains("one message size"));
}

TEST_CASE("loggp: medians, lines, clamping and bad measurements", "[loggp]") {
    CHECK(loggp::median({3, 1, 2}) == 2);
    CHECK(loggp::median({4, 1, 3, 2}) == 2.5);
    const loggp::Line l = loggp::fit_line({1, 11, 21}, {5, 25, 45});
    CHECK(l.intercept == Approx(5));
    CHECK(l.slope == Approx(2));
    // A round trip shorter than the overheads say: L < 0 is taken as 0, with a note.
    std::vector<loggp::SizeSamples> m = {synthetic({-50, 100, 100, 150, 0.1, 0.1, 0.1}, 1, 4, 3),
                                         synthetic({-50, 100, 100, 150, 0.1, 0.1, 0.1}, 1001, 4, 3)};
    const loggp::LogGPFit f = loggp::fit_loggp(m);
    CHECK(f.L == 0);
    REQUIRE(f.notes.size() == 1);
    CHECK_THAT(f.notes[0], Catch::Contains("L fitted as -50"));
    CHECK_THAT(loggp::fit_text(f), Catch::Contains("note: L fitted as"));
    m[0].recv.clear();
    CHECK_THROWS_WITH(loggp::fit_loggp(m), Catch::Contains("size 1: needs"));
    CHECK_THROWS_AS(loggp::fit_loggp({}), std::invalid_argument);
}

TEST_CASE("loggp: the probe's output lines", "[loggp]") {
    const auto s = loggp::samples_from_probe(
        "{\"bytes\":8,\"burst_n\":4,\"clock_ns\":20,\"rtt\":[1,2],\"send\":[3],\"burst\":[4],\"recv\":[5]}\n\n");
    REQUIRE(s.size() == 1);
    CHECK(s[0].bytes == 8);
    CHECK(s[0].rtt.size() == 2);
    CHECK(s[0].delayed.empty());  // PRTT(n,d,s) is optional: the table shows '-'
    CHECK_THAT(loggp::fit_text(loggp::fit_loggp(s)), Catch::Contains("5.0             -"));
    const auto d = loggp::samples_from_probe("{\"bytes\":1,\"burst_n\":3,\"delay_ns\":1000,\"rtt\":[100],"
                                             "\"send\":[3],\"burst\":[400],\"recv\":[5],\"delayed\":[2300]}");
    REQUIRE(d.size() == 1);
    CHECK(loggp::fit_loggp(d).rows[0].send_prtt == Approx(100));  // (2300 - 100) / 2 - 1000
    CHECK_THROWS_WITH(loggp::samples_from_probe("{\"bytes\":8}\n"), Catch::Contains("probe output line 1"));
    CHECK_THROWS_WITH(loggp::samples_from_probe(""), Catch::Contains("no measurements"));
}

TEST_CASE("loggp: options and their errors", "[loggp]") {
    loggp::LoggpOptions o = loggp::parse_loggp_options({"--bytes", "4096,1,64,64", "--reps", "7", "--out", "x.json"});
    CHECK(o.error.empty());
    CHECK(o.bytes == std::vector<std::uint64_t>{1, 64, 4096});
    CHECK(o.reps == 7);
    CHECK(o.out == "x.json");
    CHECK(loggp::parse_loggp_options({}).bytes.size() == 6);
    CHECK_THAT(loggp::parse_loggp_options({"--bytes", "1,x"}).error,
               Catch::Contains("'x' is not a whole number; accepted is a comma-separated list"));
    CHECK_THAT(loggp::parse_loggp_options({"--bytes", ""}).error, Catch::Contains("--bytes '': empty"));
    CHECK_THAT(loggp::parse_loggp_options({"--bytes", "0,8"}).error, Catch::Contains("'0' is out of range"));
    CHECK_THAT(loggp::parse_loggp_options({"--bytes", "1,,8"}).error, Catch::Contains("an empty item"));
    CHECK_THAT(loggp::parse_loggp_options({"--bytes", "1,8,"}).error, Catch::Contains("ends with ','"));
    CHECK_THAT(loggp::parse_loggp_options({"--bytes", "99999999999"}).error, Catch::Contains("1..67108864"));
    CHECK_THAT(loggp::parse_loggp_options({"--reps", "0"}).error,
               Catch::Contains("--reps 0: accepted values are 1..100000"));
    CHECK_THAT(loggp::parse_loggp_options({"--burst", "1"}).error,
               Catch::Contains("--burst 1: accepted values are 2..1000"));
    CHECK_THAT(loggp::parse_loggp_options({"--mpirun", " "}).error, Catch::Contains("--mpirun"));
    CHECK_THAT(loggp::parse_loggp_options({"--frob"}).error, Catch::Contains("frob"));
    CHECK(loggp::parse_loggp_options({"--help"}).help);
    CHECK_THAT(loggp::loggp_help(), Catch::Contains("--reps"));
}

TEST_CASE("simulate --params FILE: values, overrides and errors naming file and key", "[simulator][params]") {
    const sim::LogGOPS base;
    const sim::LogGOPS p =
        sim::parse_params_json(R"({"L": 300, "o": 200.4, "g": 250, "G": 0.1, "O": 0.05, "S": 4096})", "p.json", base);
    CHECK(p.L == 300);
    CHECK(p.o == 200);
    CHECK(p.g == 250);
    CHECK(p.G == 0.1);
    CHECK(p.O == 0.05);
    CHECK(p.S == 4096);
    CHECK(sim::parse_params_json(R"({"L": 7})", "p.json", base).o == base.o);  // missing keys keep base's
    const sim::LogGOPS back = sim::parse_params_json(sim::params_json(p), "w.json", base);
    CHECK(back.L == p.L);
    CHECK(back.G == p.G);
    CHECK(back.S == base.S);  // S is not written
    CHECK_THROWS_WITH(sim::parse_params_json(R"({"L": -1})", "p.json", base),
                      Catch::Contains("--params p.json: \"L\" is -1; accepted values are 0..1e15"));
    CHECK_THROWS_WITH(sim::parse_params_json(R"({"L": "fast"})", "p.json", base),
                      Catch::Contains("\"L\" is string; accepted values are numbers"));
    CHECK_THROWS_WITH(sim::parse_params_json(R"({"latency": 5})", "p.json", base),
                      Catch::Contains("unknown key \"latency\"; accepted keys are L, o, g, G, O"));
    // The key is checked before its value: a misspelt key is named as such.
    CHECK_THROWS_WITH(sim::parse_params_json(R"({"note": "measured here"})", "p.json", base),
                      Catch::Contains("unknown key \"note\""));
    CHECK_THROWS_WITH(sim::parse_params_json(R"({"S": 1.5})", "p.json", base), Catch::Contains("whole bytes"));
    CHECK_THROWS_WITH(sim::parse_params_json("[1]", "p.json", base), Catch::Contains("not an object"));
    CHECK_THROWS_WITH(sim::parse_params_json("{L:1", "p.json", base), Catch::Contains("p.json: not JSON"));
    // Found by fuzz_params_file: a number beyond double threw json's out_of_range, uncaught by the CLI.
    CHECK_THROWS_AS(sim::parse_params_json(R"({"L": 1e500})", "p.json", base), std::invalid_argument);
    CHECK_THROWS_WITH(sim::parse_params_json(R"({"L": 1e500})", "p.json", base), Catch::Contains("p.json: not JSON"));
    CHECK_THROWS_WITH(sim::read_params_file("/nonexistent/p.json", base),
                      Catch::Contains("/nonexistent/p.json: cannot be read"));

    const std::string file = "test_loggp_params.json";
    std::ofstream(file) << R"({"L": 111, "o": 22, "g": 33, "G": 0.5, "O": 0.25})";
    sim::SimulateParse s = sim::parse_simulate_options(Args{"--params", file, "--o", "44"});
    REQUIRE(s.error.empty());
    CHECK(s.request.params.L == 111);
    CHECK(s.request.params.o == 44);  // the command line overrides the file
    CHECK(s.request.params.G == 0.5);
    CHECK(s.request.params.S == base.S);
    std::ofstream(file) << R"({"g": -3})";
    CHECK_THAT(sim::parse_simulate_options(Args{"--params", file}).error, Catch::Contains("\"g\" is -3"));
    std::remove(file.c_str());
    CHECK_THAT(sim::parse_simulate_options(Args{"--params", file}).error, Catch::Contains("cannot be read"));
}
