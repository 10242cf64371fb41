// Which unwinds are evidence (unwind_filter.h): an astray one is set aside,
// a short chain that comes back is a rank hung where the unwinder stops.
#include "catch_compat.hpp"

#include "hang/model/unwind_filter.h"

using namespace jobsentry;

TEST_CASE("a rank whose unwinds never reached its entry keeps every sample", "[unwind_filter]") {
    UnwindFilter f;
    CHECK(f.accept(0, false, 1));
    CHECK(f.accept(0, false, 2));
    CHECK(f.accept(0, false, 3));
}

TEST_CASE("one short unwind after complete ones is set aside", "[unwind_filter]") {
    UnwindFilter f;
    CHECK(f.accept(1, true, 10));
    CHECK_FALSE(f.accept(1, false, 77));  // the vDSO with a wrong caller
    CHECK(f.accept(1, true, 11));
    CHECK_FALSE(f.accept(1, false, 78));  // another one, another chain
    CHECK_FALSE(f.accept(1, false, 79));  // two in a row that differ: both astray
}

TEST_CASE("the same short chain twice in a row is evidence", "[unwind_filter]") {
    UnwindFilter f;
    CHECK(f.accept(2, true, 10));
    CHECK_FALSE(f.accept(2, false, 5));  // hung in a handler the unwinder cannot get past
    CHECK(f.accept(2, false, 5));
    CHECK(f.accept(2, false, 5));
    CHECK(f.accept(2, true, 10));        // it moved on: complete again
    CHECK_FALSE(f.accept(2, false, 5));  // a complete sample in between: no longer a repeat
}

TEST_CASE("ranks are filtered apart", "[unwind_filter]") {
    UnwindFilter f;
    CHECK(f.accept(0, true, 1));
    CHECK(f.accept(3, false, 5));  // rank 3 never reached its entry
    CHECK_FALSE(f.accept(0, false, 5));
    CHECK(f.accept(3, false, 6));
}
