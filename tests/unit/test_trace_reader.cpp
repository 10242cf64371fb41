// The trace reader: a whole file reads back; a truncated file, a rank that died
// before its trailer, an unknown record kind and another version are refused
// with the file, the offset and what was expected there.
#include "catch_compat.hpp"

#include "tools/tracer/trace_reader.h"
#include "trace_test_files.h"

using namespace jobtrace;
using jobtrace::test::TraceBytes;

namespace {

std::string error_of(const std::string& bytes) {
    try {
        parse_rank_trace("rank-1.jstrace", bytes);
    } catch (const TraceError& e) {
        return e.what();
    }
    return "(accepted)";
}

}  // namespace

TEST_CASE("a whole trace reads back with its communicators", "[trace]") {
    const std::int32_t members[] = {1, 0};
    Record comm{static_cast<std::uint8_t>(Kind::comm), 0, 1, 2, 0, 0, 0, 0, 0};
    TraceBytes t(1, 2);
    t.raw(&comm, sizeof comm).raw(members, sizeof members);
    // The comm record counts as one of the records the trailer counts.
    t.rec(Kind::send, 0, 8, 10, 20).rec(Kind::barrier, -1, 0, 30, 40, 0, 0, 1);
    Record end{static_cast<std::uint8_t>(Kind::end), 0, 0, -1, 0, 0, 3, 0, 0};
    t.raw(&end, sizeof end);
    RankTrace r = parse_rank_trace("rank-1.jstrace", t.str());
    CHECK(r.rank == 1);
    CHECK(r.world_size == 2);
    REQUIRE(r.records.size() == 2);
    CHECK(r.records[1].comm == 1);
    REQUIRE(r.comms.count(1) == 1);
    CHECK(r.comms[1] == std::vector<std::int32_t>{1, 0});
    CHECK(r.comms[0] == std::vector<std::int32_t>{0, 1});
}

TEST_CASE("bad trace files name the file, the offset and what was expected", "[trace]") {
    const std::string whole = TraceBytes(1, 2).rec(Kind::send, 0, 8, 10, 20).end().str();
    struct Case {
        const char* what;
        std::string bytes;
        const char* message;
    } cases[] = {
        {"empty file", "", "rank-1.jstrace: offset 0: expected a 32-byte jobsentry trace header, found only 0 bytes"},
        {"another file", std::string(40, 'x'), "rank-1.jstrace: offset 0: expected the magic JSTRACE"},
        {"no trailer", TraceBytes(1, 2).rec(Kind::send, 0, 8, 10, 20).str(),
         "rank-1.jstrace: offset 72: expected a record or the trailer, found the end of the file (rank 1 ended "
         "before MPI_Finalize)"},
        {"truncated record", whole.substr(0, 32 + 17),
         "rank-1.jstrace: offset 32: expected a 40-byte record, found only 17 bytes (the file is truncated)"},
        {"unknown kind", TraceBytes(1, 2).rec(static_cast<Kind>(99), 0, 8, 10, 20).end().str(),
         "rank-1.jstrace: offset 32: expected a record kind from 1 to 17, found kind 99"},
        {"undefined communicator", TraceBytes(1, 2).rec(Kind::barrier, -1, 0, 10, 20, 0, 0, 5).end().str(),
         "rank-1.jstrace: offset 32: expected a communicator defined earlier, found communicator 5"},
        {"bytes after the trailer", whole + "zz",
         "rank-1.jstrace: offset 112: expected the end of the file after the trailer, found only 2 bytes more"},
    };
    for (const auto& c : cases) {
        INFO(c.what);
        CHECK(error_of(c.bytes).rfind(c.message, 0) == 0);
    }
    std::string other_version = whole;
    other_version[8] = 2;
    CHECK(error_of(other_version) ==
          "rank-1.jstrace: offset 8: expected trace version 1 with 40-byte records, found version 2 with 40-byte "
          "records");
}
