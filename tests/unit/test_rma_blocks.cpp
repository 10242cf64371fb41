// Datatype flattening arithmetic of the RMA checker (rmacheck/blocks.h).
#include "catch_compat.hpp"

#include "tools/rmacheck/blocks.h"

using rmacheck::Block;

TEST_CASE("merge_blocks sorts, merges touching and overlapping blocks, drops empty ones") {
    struct Row {
        std::vector<Block> in, out;
    };
    std::vector<Row> rows = {
        {{}, {}},
        {{{0, 4}}, {{0, 4}}},
        {{{8, 4}, {0, 4}}, {{0, 4}, {8, 4}}},
        {{{0, 4}, {4, 4}}, {{0, 8}}},          // touching
        {{{0, 8}, {2, 2}}, {{0, 8}}},          // contained
        {{{0, 4}, {2, 6}}, {{0, 8}}},          // overlapping
        {{{0, 0}, {5, -1}, {3, 1}}, {{3, 1}}},  // empty ones dropped
    };
    for (const auto& r : rows) CHECK(rmacheck::merge_blocks(r.in) == r.out);
}

TEST_CASE("repeat_blocks lays elements out at their extent, exactly") {
    bool exact = true;
    // A strided element (int, gap of one int) repeated: blocks stay apart.
    CHECK(rmacheck::repeat_blocks({{0, 4}}, 3, 8, 100, &exact) == std::vector<Block>{{0, 4}, {8, 4}, {16, 4}});
    CHECK(exact);
    // A dense element repeated is one block.
    CHECK(rmacheck::repeat_blocks({{0, 4}}, 1000, 4, 10, &exact) == std::vector<Block>{{0, 4000}});
    CHECK(exact);
    // Two blocks per element, the second element's first block touching the first's second.
    CHECK(rmacheck::repeat_blocks({{0, 2}, {4, 4}}, 2, 8, 100, &exact) ==
          std::vector<Block>{{0, 2}, {4, 6}, {12, 4}});
    CHECK(rmacheck::repeat_blocks({{0, 4}}, 0, 4, 10, &exact).empty());
}

TEST_CASE("repeat_blocks falls back to the bounding block beyond the limit and says so") {
    bool exact = true;
    auto out = rmacheck::repeat_blocks({{0, 4}}, 100, 8, 10, &exact);
    CHECK_FALSE(exact);
    CHECK(out == std::vector<Block>{{0, 99 * 8 + 4}});
}
