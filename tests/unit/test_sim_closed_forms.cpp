// The simulator against the LogGOPS closed forms (docs/simulator.md derives
// them and works small cases by hand): binomial tree, dissemination (with the
// slides' delta), linear scatter and gather, for several P and s, in the
// parameter regimes where each form is exact.
#include "catch_compat.hpp"

#include <algorithm>

#include "tools/simulator/collectives.h"
#include "tools/simulator/engine.h"
#include "sim_test_params.h"

using namespace jobsentry::sim;

namespace {

Time run(const std::string& name, std::uint32_t P, std::uint64_t s, const LogGOPS& p) {
    Schedule sched = make_collective(name, P, s);
    SimResult r = simulate(sched, p);
    REQUIRE(r.error.empty());
    return r.makespan;
}

LogGOPS params(Time L, Time o, Time g, double G, double O) { return test_params(L, o, g, G, O, 1u << 30); }

// (s-1)O and (s-1)G of the closed forms.
Time Os(const LogGOPS& p, std::uint64_t s) { return p.bytes_O(s); }
Time Gs(const LogGOPS& p, std::uint64_t s) { return p.bytes_G(s); }

}  // namespace

TEST_CASE("simulator: small cases worked by hand", "[simulator]") {
    // docs/simulator.md, "Worked cases": L=100 o=10 g=5 O=2 G=1.
    LogGOPS p = params(100, 10, 5, 1, 2);
    CHECK(run("binomial-bcast", 2, 1, p) == 120);     // o + L + o
    CHECK(run("binomial-bcast", 4, 11, p) == 280);    // two hops of 2o + L + 10*O
    CHECK(run("scatter-linear", 4, 11, p) == 200);    // last send at 60, +o+L, +o+10*O
    CHECK(run("gather-linear", 4, 11, p) == 200);     // three receives of 30 ns from 110
    CHECK(run("dissemination", 3, 1, p) == 240);      // two rounds of 2o + L
    CHECK(run("dissemination", 2, 201, p) == 820);    // receive waits for the own send: 410 + o + 400
    CHECK(run("binomial-reduce", 4, 1, p) == 240);
}

TEST_CASE("simulator: binomial broadcast and reduce closed form (g <= o)", "[simulator]") {
    // (2o + L + max{(s-1)O, (s-1)G}) ceil(log2 P): exact for P a power of two.
    for (const LogGOPS& p : {params(100, 10, 5, 1, 2), params(100, 10, 5, 3, 1), params(2900, 2400, 1700, 5, 2)}) {
        for (std::uint32_t P : {2u, 4u, 8u, 16u, 64u, 1024u}) {
            for (std::uint64_t s : {1ull, 8ull, 101ull, 1000ull}) {
                Time expected = (2 * p.o + p.L + std::max(Os(p, s), Gs(p, s))) * ceil_log2(P);
                INFO("P=" << P << " s=" << s << " o=" << p.o << " G=" << p.G << " O=" << p.O);
                CHECK(run("binomial-bcast", P, s, p) == expected);
                CHECK(run("binomial-reduce", P, s, p) == expected);
            }
        }
    }
}

TEST_CASE("simulator: binomial form is an upper bound for other P", "[simulator]") {
    LogGOPS p = params(100, 10, 5, 1, 2);
    for (std::uint32_t P : {3u, 5u, 6u, 7u, 100u, 1000u}) {
        Time level = 2 * p.o + p.L + std::max(Os(p, 8), Gs(p, 8));
        Time t = run("binomial-bcast", P, 8, p);
        INFO("P=" << P);
        CHECK(t <= level * ceil_log2(P));
        CHECK(t > level * (ceil_log2(P) - 1));
    }
}

TEST_CASE("simulator: dissemination closed form with delta", "[simulator]") {
    // (delta + 2o + L + max{(s-1)O, (s-1)G}) ceil(log2 P), delta = max(0, (s-1)O - L):
    // exact for any P when O >= G, and whenever delta = 0.
    for (const LogGOPS& p : {params(100, 10, 5, 1, 2), params(100, 10, 5, 2, 2), params(5300, 2300, 2000, 1, 2.5)}) {
        for (std::uint32_t P : {2u, 3u, 5u, 7u, 8u, 13u, 100u, 1000u}) {
            for (std::uint64_t s : {1ull, 8ull, 51ull, 101ull, 1000ull, 10000ull}) {
                Time delta = Os(p, s) > p.L ? Os(p, s) - p.L : 0;
                Time expected = (delta + 2 * p.o + p.L + std::max(Os(p, s), Gs(p, s))) * ceil_log2(P);
                INFO("P=" << P << " s=" << s << " delta=" << delta);
                CHECK(run("dissemination", P, s, p) == expected);
            }
        }
    }
    LogGOPS nic = params(1000, 10, 5, 3, 1);  // G > O, (s-1)O <= L: delta = 0
    for (std::uint32_t P : {2u, 9u, 64u})
        for (std::uint64_t s : {1ull, 101ull, 1001ull})
            CHECK(run("dissemination", P, s, nic) ==
                  (2 * nic.o + nic.L + std::max(Os(nic, s), Gs(nic, s))) * ceil_log2(P));
}

TEST_CASE("simulator: linear scatter and gather closed form", "[simulator]") {
    // 2o + L + max{(P-2)o + (P-1)(s-1)O, (P-2)g + (P-1)(s-1)G}: exact when the CPU
    // (o >= g, O >= G) or the NIC (g >= o, G >= O) is the bottleneck throughout.
    for (const LogGOPS& p : {params(100, 10, 5, 1, 2), params(100, 5, 10, 2, 1), params(5300, 2300, 2000, 1, 1)}) {
        for (std::uint32_t P : {2u, 3u, 5u, 17u, 100u}) {
            for (std::uint64_t s : {1ull, 8ull, 101ull, 1000ull}) {
                Time cpu = (P - 2) * p.o + (P - 1) * Os(p, s), nic = (P - 2) * p.g + (P - 1) * Gs(p, s);
                Time expected = 2 * p.o + p.L + std::max(cpu, nic);
                INFO("P=" << P << " s=" << s << " o=" << p.o << " g=" << p.g);
                CHECK(run("scatter-linear", P, s, p) == expected);
                CHECK(run("gather-linear", P, s, p) == expected);
            }
        }
    }
}

TEST_CASE("simulator: every collective completes and counts its messages", "[simulator]") {
    LogGOPS p = params(100, 10, 5, 1, 2);
    struct Row {
        const char* name;
        std::uint32_t P;
        std::uint64_t messages;
    };
    for (const Row& row : {Row{"binomial-bcast", 13, 12}, Row{"binomial-reduce", 13, 12}, Row{"dissemination", 13, 52},
                           Row{"allreduce-recdbl", 8, 24}, Row{"allreduce-recdbl", 13, 5 * 2 + 8 * 3},
                           Row{"allreduce-ring", 5, 5 * 8}, Row{"scatter-linear", 13, 12},
                           Row{"gather-linear", 13, 12}}) {
        Schedule s = make_collective(row.name, row.P, 64);
        INFO(row.name << " P=" << row.P);
        CHECK(s.messages() == row.messages);
        SimResult r = simulate(s, p);
        CHECK(r.error.empty());
        CHECK(r.messages == row.messages);
        CHECK(r.makespan > 0);
    }
    // Recursive doubling, P = 8: three rounds of 2o + L.
    CHECK(run("allreduce-recdbl", 8, 1, p) == 3 * 120);
    // Ring, P = 4: 6 steps of 2o + L (1 byte each).
    CHECK(run("allreduce-ring", 4, 4, p) == 6 * 120);
}

TEST_CASE("simulator: unknown collective and P < 2 are refused", "[simulator]") {
    CHECK_THROWS_WITH(make_collective("tree", 8, 8), Catch::Contains("accepted: binomial-bcast"));
    CHECK_THROWS_WITH(make_collective("dissemination", 1, 8), Catch::Contains("at least 2"));
}
