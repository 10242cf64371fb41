// Mode 1's sampling of origin buffers (rmacheck/sampling.h).
#include "catch_compat.hpp"

#include <cmath>

#include "tools/rmacheck/sampling.h"

using rmacheck::Sampler;
using rmacheck::SamplingPolicy;

namespace {
// n intervals of `per` operations at one site; returns how many intervals were watched, and checks
// that every interval was watched whole or not at all.
uint64_t run_intervals(Sampler& s, uint64_t site, int n, int per) {
    uint64_t watched = 0;
    for (int i = 0; i < n; ++i) {
        const bool first = s.watch(site);
        for (int k = 1; k < per; ++k) REQUIRE(s.watch(site) == first);
        watched += first;
        s.interval_ended();
    }
    return watched;
}
}  // namespace

TEST_CASE("sampling: a call site's first operations are all watched, then whole intervals are sampled") {
    Sampler s(7);
    for (int i = 0; i < 64; ++i) REQUIRE(s.watch(0x1000));  // warm-up, even within one interval
    CHECK(s.watched() == 64);
    // 100,000 intervals of 8 operations: 4 watched at each of the rates 1, 1/4 .. 1/1024, then 1 in 4096.
    const uint64_t watched = run_intervals(s, 0x1000, 100000, 8);
    CHECK(watched >= 24);
    CHECK(watched <= 24 + 4 + 100000 / 4096 * 3);
    CHECK(s.operations() == 64 + 800000);
    CHECK(s.watched() == 64 + 8 * watched);
}

TEST_CASE("sampling: a new call site is watched at once, whatever the interval decided") {
    Sampler s(7);
    run_intervals(s, 0x1000, 64, 1);     // site A warmed up
    run_intervals(s, 0x1000, 20000, 1);  // and down at its floor
    int unwatched_a = 0;
    for (int i = 0; i < 200; ++i) {
        unwatched_a += !s.watch(0x1000);
        CHECK(s.watch(0x2000 + i));  // first operation of a new site, in the same interval
        s.interval_ended();
    }
    CHECK(unwatched_a > 190);
}

TEST_CASE("sampling: each site decides its intervals at its own rate") {
    Sampler s(7);
    run_intervals(s, 0x1000, 20064, 1);  // site A warmed up and down at its floor
    for (int i = 0; i < 64; ++i) REQUIRE(s.watch(0x2000));  // site B's warm-up
    s.interval_ended();
    // B's first intervals past its warm-up are at rate 1, whatever A drew in the same interval.
    for (int i = 0; i < 4; ++i) {
        s.watch(0x1000);
        CHECK(s.watch(0x2000));
        s.interval_ended();
    }
}

TEST_CASE("sampling: the rate falls by 4 every burst of watched intervals, to the floor") {
    Sampler s(1);
    CHECK(s.rate(0) == 1.0);
    CHECK(s.rate(3) == 1.0);
    CHECK(s.rate(4) == 0.25);
    CHECK(s.rate(8) == 1.0 / 16);
    CHECK(s.rate(24) == 1.0 / 4096);
    CHECK(s.rate(1000) == 1.0 / 4096);
}

TEST_CASE("sampling: off (--check-all) watches every operation; a seed repeats a run") {
    Sampler all(7, SamplingPolicy{}, false);
    CHECK(run_intervals(all, 0x1000, 10000, 4) == 10000);
    CHECK(all.watched() == all.operations());
    Sampler a(42), b(42), c(43);
    std::vector<bool> wa, wb, wc;
    for (int i = 0; i < 5000; ++i) {
        wa.push_back(a.watch(0x1000)), wb.push_back(b.watch(0x1000)), wc.push_back(c.watch(0x1000));
        a.interval_ended(), b.interval_ended(), c.interval_ended();
    }
    CHECK(wa == wb);
    CHECK(wa != wc);
}
