#include "catch_compat.hpp"

#include "hang/model/own_wakeups.h"

using namespace jobsentry;

namespace {
// Five verification looks at one rank; before each, the reading; each look adds `ours` sleeps,
// and the rank sleeps `own` times by itself between looks.
bool five_looks(uint64_t ours, uint64_t own) {
    OwnWakeups w;
    uint64_t sleeps = 1000;
    for (int look = 0; look < 5; ++look) {
        w.reading(2, sleeps);
        w.looked(2);
        sleeps += ours + own;
    }
    return w.woke_by_itself(2);
}
}  // namespace

TEST_CASE("a rank asleep for good is not taken for one that wakes by itself") {
    CHECK_FALSE(five_looks(2, 0));  // sleeping, stopped or blocked: our 2 per look, nothing else
    CHECK_FALSE(five_looks(0, 0));  // a look that did not stop it
    CHECK(five_looks(2, 3));        // a loop that sleeps: 3 own sleeps between looks
    CHECK(five_looks(2, 1));        // 4 own sleeps over the window, more than the slack of one
}

TEST_CASE("one stray wake-up, an unknown rank and a lone reading clear nothing") {
    OwnWakeups w;
    w.reading(1, 10);
    w.looked(1);
    w.reading(1, 13);  // 2 ours + 1 stray
    CHECK_FALSE(w.woke_by_itself(1));
    CHECK_FALSE(w.woke_by_itself(7));
    OwnWakeups lone;
    lone.reading(3, 50);
    CHECK_FALSE(lone.woke_by_itself(3));
    lone.looked(3);  // a look after the last reading gives no allowance and no evidence
    CHECK_FALSE(lone.woke_by_itself(3));
}
