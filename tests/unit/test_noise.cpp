// The probe's pure parts: detour statistics, histogram bins, the --cpus list,
// the report formats and the options of `jobsentry noise`.
#include "catch_compat.hpp"

#include <sstream>

#include "tools/noise/cpu_list.h"
#include "tools/noise/noise_options.h"
#include "tools/simulator/noise.h"
#include "tools/noise/noise_report.h"
#include "tools/noise/noise_stats.h"

using namespace jobsentry;

TEST_CASE("histogram bins are quarter octaves with exact integer edges", "[noise]") {
    struct Row {
        uint64_t ns;
        int bin;
    };
    for (Row r : {Row{1, 0}, Row{2, 4}, Row{3, 6}, Row{4, 8}, Row{1000, 39}, Row{100000, 66}, Row{65535, 63},
                  Row{65536, 64}, Row{1ull << 40, 160}}) {
        CAPTURE(r.ns);
        CHECK(histogram_bin(r.ns) == r.bin);
    }
    // Every bin's low edge is in that bin and the value below it in the previous
    // one (from 8 ns on; below that, quarter octaves are narrower than 1 ns).
    for (int bin = 12; bin < 200; ++bin) {
        uint64_t low = histogram_bin_low(bin);
        CAPTURE(bin, low);
        CHECK(histogram_bin(low) == bin);
        if (low > 1 && histogram_bin_low(bin - 1) < low) CHECK(histogram_bin(low - 1) == bin - 1);
    }
    // 100 us lies in [92.7 us, 110.2 us): an injected 100 us detour has its own bin.
    CHECK(histogram_bin_low(histogram_bin(100000)) == 92682);
    CHECK(histogram_bin_low(histogram_bin(100000) + 1) == 110218);
}

TEST_CASE("nearest-rank percentiles", "[noise]") {
    std::vector<uint64_t> v{10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
    CHECK(percentile_sorted(v, 0.5) == 50);
    CHECK(percentile_sorted(v, 0.99) == 100);
    CHECK(percentile_sorted(v, 0.1) == 10);
    CHECK(percentile_sorted({}, 0.5) == 0);
    CHECK(percentile_sorted({7}, 0.99) == 7);
}

TEST_CASE("detour statistics: overhead, frequency, median, p99, max, histogram", "[noise]") {
    // 1 s measured; 1000 detours of 100 us (10 %) and one of 5 ms (0.5 %).
    std::vector<Detour> trace;
    for (uint64_t i = 0; i < 1000; ++i) trace.push_back({i * 1000000, 100000});
    trace.push_back({999500000, 5000000});
    DetourStats s = detour_stats(trace, 1000000000);
    CHECK(s.detours == 1001);
    CHECK(s.noise_percent == Approx(10.5));
    CHECK(s.frequency_hz == Approx(1001));
    CHECK(s.median_ns == 100000);
    CHECK(s.p99_ns == 100000);
    CHECK(s.max_ns == 5000000);
    REQUIRE(s.histogram.size() == 2);
    CHECK(s.histogram[0].count == 1000);
    CHECK(s.histogram[0].low_ns <= 100000);
    CHECK(s.histogram[0].high_ns > 100000);
    CHECK(s.histogram[1].count == 1);
    CHECK(s.histogram[1].low_ns <= 5000000);
}

TEST_CASE("no detours and no measured time give zeros, not NaN", "[noise]") {
    DetourStats s = detour_stats({}, 0);
    CHECK(s.detours == 0);
    CHECK(s.noise_percent == 0);
    CHECK(s.frequency_hz == 0);
    CHECK(s.max_ns == 0);
    CHECK(s.histogram.empty());
    // Rounded back-to-back detours never claim more than all of the time.
    CHECK(detour_stats({{0, 14}, {14, 14}}, 27).noise_percent == 100);
}

TEST_CASE("--cpus lists against existing and allowed PUs", "[noise]") {
    const std::vector<int> existing{0, 1, 2, 3, 4, 5, 6, 7}, allowed{0, 1, 2, 3, 6};
    struct Row {
        const char* text;
        std::vector<int> cpus;
        const char* error;  // substring of the error, "" for none
    };
    for (const Row& r : {Row{"all", {0, 1, 2, 3, 6}, ""}, Row{"0", {0}, ""}, Row{"3,1,1-2", {1, 2, 3}, ""},
                         Row{"6", {6}, ""}, Row{"9", {}, "PU 9 does not exist on this machine (PUs 0-7)"},
                         Row{"2-5", {}, "PU 4 is outside the set this process may run on (0-3,6)"},
                         Row{"x", {}, "'x' is not a PU number"}, Row{"3-1", {}, "'3-1' is not a PU number"},
                         Row{"-1", {}, "is not a PU number"}, Row{"", {}, "accepted: 'all'"},
                         Row{"1,", {}, "accepted: 'all'"}, Row{"1,,2", {}, "is not a PU number"}}) {
        CAPTURE(r.text);
        CpuListParse p = parse_cpu_list(r.text, existing, allowed);
        if (*r.error) {
            CHECK_THAT(p.error, Catch::Contains(r.error));
            CHECK(p.cpus.empty());
        } else {
            CHECK(p.error.empty());
            CHECK(p.cpus == r.cpus);
        }
    }
    CHECK(format_cpu_list({0, 1, 2, 3, 5, 7, 8}) == "0-3,5,7-8");
    CHECK(parse_cpu_list("all", existing, {}).error.find("no PU") != std::string::npos);
}

TEST_CASE("noise options: defaults, reused duration parser, bad values named", "[noise]") {
    NoiseParse d = parse_noise_options({});
    REQUIRE(d.error.empty());
    CHECK(d.settings.duration_ns == 5000000000ull);
    CHECK(d.settings.threshold_ns == 0);
    CHECK(d.options.cpus == "all");
    NoiseParse p = parse_noise_options({"--duration", "250ms", "--threshold-ns", "500", "--clock", "monotonic"});
    REQUIRE(p.error.empty());
    CHECK(p.settings.duration_ns == 250000000ull);
    CHECK(p.settings.threshold_ns == 500);
    CHECK(p.settings.clock == ClockChoice::monotonic);
    struct Row {
        std::vector<std::string> args;
        const char* error;
    };
    for (const Row& r : {Row{{"--duration", "0s"}, "--duration 0s: accepted values are durations above 0"},
                         Row{{"--duration=-5s"}, "--duration -5s: accepted"}, Row{{"--duration", "5"}, "with a unit"},
                         Row{{"--duration", "61m"}, "at most|up to 60m"},
                         Row{{"--threshold-ns", "-3"}, "--threshold-ns -3: accepted values are 0"},
                         Row{{"--threshold-ns", "abc"}, "threshold-ns"}, Row{{"--clock", "hpet"}, "auto, tsc, monotonic"},
                         Row{{"--max-detours", "5"}, "1000..100000000"}, Row{{"--frobnicate"}, "frobnicate"}}) {
        CAPTURE(r.args);
        NoiseParse bad = parse_noise_options(r.args);
        CHECK_THAT(bad.error, Catch::Matches(std::string(".*(") + r.error + ").*"));
    }
}

TEST_CASE("noise report: JSON per PU and trace lines start<TAB>duration", "[noise]") {
    ProbeResult r;
    r.clock = "tsc";
    r.duration_ns = 1000000000;
    PuResult pu;
    pu.cpu = 3;
    pu.resolution_ns = 12.34;
    pu.threshold_ns = 112;
    pu.measured_ns = 1000000000;
    pu.trace = {{10, 200}, {5000, 100000}};
    pu.stats = detour_stats(pu.trace, pu.measured_ns);
    r.pus.push_back(pu);
    PuResult broken;
    broken.cpu = 5;
    broken.error = "cannot pin";
    r.pus.push_back(broken);

    nlohmann::json j = noise_json(r);
    REQUIRE(j["pus"].size() == 2);
    const auto& p = j["pus"][0];
    CHECK(p["cpu"] == 3);
    CHECK(p["resolution_ns"].get<double>() == Approx(12.34));
    CHECK(p["detours"] == 2);
    CHECK(p["max_detour_ns"] == 100000);
    CHECK(p["noise_percent"].get<double>() == Approx(0.01002));
    CHECK(p["buffer_full"] == false);
    CHECK(p["histogram"].size() == 2);
    CHECK(j["pus"][1]["error"] == "cannot pin");

    std::ostringstream trace;
    write_noise_trace(trace, pu);
    CHECK(trace.str() == "# period_ns 1000000000\n10\t200\n5000\t100000\n");  // the span first, for the simulator
    // A detour that straddles the end of the measurement: the period covers it, so the simulator
    // reads the file (it refuses a period shorter than the trace; seen once in slurm_noise_probe).
    PuResult straddling = pu;
    straddling.trace.push_back({999999990, 11});
    std::stringstream late;
    write_noise_trace(late, straddling);
    CHECK(late.str().rfind("# period_ns 1000000001\n", 0) == 0);
    CHECK(jobsentry::sim::read_noise_trace(late, "cpu3.tsv").period == 1000000001);
    CHECK(noise_trace_name(3) == "cpu3.tsv");
    std::string table = noise_table(r);
    CHECK_THAT(table, Catch::Contains("not measured: cannot pin"));
    CHECK_THAT(table, Catch::Contains("100.0 us"));
}

TEST_CASE("noisiest_pu: the measured PU with the highest overhead") {
    ProbeResult r;
    CHECK(noisiest_pu(r) == nullptr);
    PuResult a, b, c;
    a.cpu = 0;
    a.stats.noise_percent = 1.5;
    b.cpu = 1;
    b.stats.noise_percent = 9.0;
    b.error = "cannot pin";  // not measured: never the noisiest
    c.cpu = 2;
    c.stats.noise_percent = 2.5;
    r.pus = {a, b, c};
    REQUIRE(noisiest_pu(r) != nullptr);
    CHECK(noisiest_pu(r)->cpu == 2);
}
