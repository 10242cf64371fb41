// Accumulates with different basic types on the same location (MPI-3.1 11.7.1 and 11.7.2): never
// atomic together, and not ordered even when one origin issues both, since accumulate ordering is
// "on a per-datatype granularity". The same basic type keeps both exemptions.
#include "catch_compat.hpp"

#include "rma_test_traces.h"
#include "tools/rmacheck/analysis/report.h"

using namespace rmacheck;
using namespace rmacheck::test;

namespace {
// One accumulate of rank 0 on rank 1's window, at a displacement (disp_unit 4) with a basic type.
Event acc(int64_t disp, uint64_t site, const std::string& op, const std::string& basic) {
    Event e = rma(RmaKind::acc, 1, disp, site, op);
    e.basic = basic;
    return e;
}
// Rank 0 issues both accumulates in one lock epoch on rank 1, nothing completing the first before the
// second: only the window's accumulate ordering can order them.
std::vector<Finding> one_origin(const Event& first, const Event& second) {
    auto t = job(2);
    add(t[0], {sync(trace::SyncKind::lock, 1), first, second, sync(trace::SyncKind::unlock, 1)});
    return races(t);
}
}  // namespace

TEST_CASE("one origin: accumulates of one basic type are ordered, of two basic types they race") {
    SECTION("MPI_INT then MPI_INT on the same element: no finding") {
        CHECK(one_origin(acc(2, 0x100, "MPI_SUM", "MPI_INT"), acc(2, 0x200, "MPI_SUM", "MPI_INT")).empty());
    }
    SECTION("same type, another op (MPI_SUM then MPI_REPLACE): not atomic, but ordered: no finding") {
        CHECK(one_origin(acc(2, 0x100, "MPI_SUM", "MPI_INT"), acc(2, 0x200, "MPI_REPLACE", "MPI_INT")).empty());
    }
    SECTION("MPI_FLOAT then MPI_INT on the same element: a finding naming both calls and both types") {
        auto f = one_origin(acc(2, 0x100, "MPI_SUM", "MPI_FLOAT"), acc(2, 0x200, "MPI_SUM", "MPI_INT"));
        REQUIRE(f.size() == 1);
        CHECK(f[0].why == "different basic types");
        CHECK(f[0].a.rank == 0);
        CHECK(f[0].b.rank == 0);
        CHECK(f[0].a.site == 0x100);
        CHECK(f[0].b.site == 0x200);
        CHECK(f[0].bytes == Range{8, 12});
        const std::string why = explain_finding(f[0]);
        CHECK(why.find("atomicity violation: accumulates with different basic datatypes (MPI_FLOAT and MPI_INT) "
                       "on the same location are not atomic (MPI-3.1 §11.7.1)") == 0);
        CHECK(why.find("§11.7.2") != std::string::npos);  // one origin: why its ordering does not help
    }
    SECTION("MPI_FLOAT and MPI_INT on neighbouring elements: no finding") {
        CHECK(one_origin(acc(2, 0x100, "MPI_SUM", "MPI_FLOAT"), acc(3, 0x200, "MPI_SUM", "MPI_INT")).empty());
    }
    SECTION("a window made with accumulate_ordering=none: the same type with another op races") {
        auto t = job(2);
        t[0].wins[1].acc_ordering = 0;
        add(t[0], {sync(trace::SyncKind::lock, 1), acc(2, 0x100, "MPI_SUM", "MPI_INT"),
                   acc(2, 0x200, "MPI_REPLACE", "MPI_INT"), sync(trace::SyncKind::unlock, 1)});
        auto f = races(t);
        REQUIRE(f.size() == 1);
        CHECK(f[0].why == "different operations");
        CHECK(explain_finding(f[0]).empty());
    }
}

TEST_CASE("two origins: accumulates of two basic types on one element race, on disjoint elements not") {
    using K = RmaKind;
    SECTION("MPI_INT against MPI_INT: atomic, no finding") {
        CHECK(pair_races(atomic_op(K::acc, 2, 0x100, "MPI_SUM"), atomic_op(K::acc, 2, 0x200, "MPI_SUM")).empty());
    }
    SECTION("MPI_FLOAT against MPI_INT on the same element: a finding, explained without the ordering") {
        auto f = pair_races(atomic_op(K::acc, 2, 0x100, "MPI_SUM", "MPI_FLOAT"), atomic_op(K::acc, 2, 0x200, "MPI_SUM"));
        REQUIRE(f.size() == 1);
        CHECK(f[0].why == "different basic types");
        CHECK(f[0].a.rank != f[0].b.rank);
        const std::string why = explain_finding(f[0]);
        CHECK(why.find("(MPI_FLOAT and MPI_INT)") != std::string::npos);
        CHECK(why.find("§11.7.2") == std::string::npos);
    }
    SECTION("MPI_FLOAT against MPI_INT on disjoint elements: no finding") {
        CHECK(pair_races(atomic_op(K::acc, 2, 0x100, "MPI_SUM", "MPI_FLOAT"), atomic_op(K::acc, 5, 0x200, "MPI_SUM"))
                  .empty());
    }
}

TEST_CASE("basic_type_conflict: one and the same basic type of one size, or the reason") {
    CHECK(basic_type_conflict({"MPI_SUM", "MPI_INT", 4}, {"MPI_MAX", "MPI_INT", 4}) == nullptr);
    CHECK(std::string(basic_type_conflict({"MPI_SUM", "MPI_FLOAT", 4}, {"MPI_SUM", "MPI_INT", 4})) ==
          "different basic types");
    CHECK(std::string(basic_type_conflict({"MPI_SUM", "", 0}, {"MPI_SUM", "MPI_INT", 4})) == "not one basic type");
}
