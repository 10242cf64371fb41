// The per-node MTBF from Slurm's node events (sacctmgr list event).
#include "catch_compat.hpp"

#include "tools/checkpoint/mtbf_estimate.h"

using namespace jobsentry::ckpt;

TEST_CASE("sacctmgr events: parsed, bad lines named") {
    std::vector<std::string> errors;
    auto events = parse_sacctmgr_events(
        "n01|2026-11-01T00:00:00|2026-11-01T02:00:00|DOWN|Not responding\n"
        "n02|2026-11-05T12:00:00|Unknown|DRAIN|maintenance\n"
        "n03|yesterday|Unknown|DOWN|x\n"
        "n04|2026-11-10T00:00:00|2026-11-10T01:00:00|FAIL|\n\n",
        &errors);
    REQUIRE(events.size() == 3);
    CHECK(events[0].node == "n01");
    CHECK(events[0].start == 1793491200);  // 2026-11-01T00:00:00 UTC
    CHECK(events[0].reason == "Not responding");
    CHECK(events[2].state == "FAIL");
    CHECK(events[2].reason.empty());
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].find("line 3 'n03|yesterday") == 0);
    CHECK(is_failure(events[0]));
    CHECK_FALSE(is_failure(events[1]));  // a drain is maintenance
    CHECK(is_failure(events[2]));
}

TEST_CASE("MTBF estimate: node-time over failures, a lower bound also without failures") {
    const double day = 86400;
    std::vector<NodeEvent> events;
    for (int i = 0; i < 10; ++i) events.push_back({"n" + std::to_string(i), i * day, "DOWN", ""});
    events.push_back({"n1", 2 * day, "DRAIN", "maintenance"});
    events.push_back({"n1", 40 * day, "DOWN", "outside the window"});
    MtbfEstimate m = estimate_node_mtbf(events, 100, 0, 30 * day);
    CHECK(m.failures == 10);
    CHECK(m.node_seconds == 100 * 30 * day);
    CHECK(m.node_mtbf_s == Approx(300 * day));
    // 2T/χ²₀.₉₅(22) with χ²₀.₉₅(22) = 33.924.
    CHECK(m.lower_bound_s == Approx(2 * 3000 * day / 33.924).epsilon(1e-4));
    CHECK(m.lower_bound_s < m.node_mtbf_s);
    MtbfEstimate none = estimate_node_mtbf({}, 100, 0, 30 * day);
    CHECK(none.failures == 0);
    CHECK(none.node_mtbf_s == 0);
    CHECK(none.lower_bound_s == Approx(2 * 3000 * day / 5.9915).epsilon(1e-4));  // χ²₀.₉₅(2)
    CHECK(estimate_node_mtbf(events, 100, 5, 5).node_seconds == 0);
}
