// Trace file parsing of the RMA checker: good records, and every kind of damage
// named by file and offset (rmacheck/analysis/trace_reader.h).
#include "catch_compat.hpp"

#include "trace_reader.h"

using namespace rmacheck;
using trace::Encoder;
using trace::Rec;

namespace {
std::string header(int rank = 2, int size = 4) {
    std::string h(trace::kMagic, 8);
    int32_t f[5] = {static_cast<int32_t>(trace::kVersion), rank, size, 1234, 1};
    h.append(reinterpret_cast<char*>(f), sizeof f);
    return h;
}
std::string put_record() {
    Encoder e;
    e.put<uint8_t>(static_cast<uint8_t>(trace::RmaKind::put)), e.put<uint32_t>(1), e.put<int32_t>(1);
    e.put<int64_t>(5), e.put<uint64_t>(0x401000), e.put<uint64_t>(0);
    e.put_str(""), e.put_str("MPI_INT"), e.put<uint32_t>(4);
    e.put_ranges({{0x1000, 0x1004}}), e.put_ranges({}), e.put_ranges({{0, 4}});
    return e.record(Rec::rma);
}
}  // namespace

TEST_CASE("a well-formed trace is read with its header and records") {
    Encoder comm;
    comm.put<uint32_t>(1), comm.put_ints({0, 1, 2, 3}), comm.put<uint32_t>(0);
    std::string bytes = header() + comm.record(Rec::comm) + put_record();
    RankTrace t = parse_trace("rank-2.jsrma", bytes);
    CHECK(t.error.empty());
    CHECK(t.rank == 2);
    CHECK(t.size == 4);
    CHECK(t.comms.at(1) == std::vector<int32_t>{0, 1, 2, 3});
    REQUIRE(t.events.size() == 1);
    CHECK(t.events[0].disp == 5);
    CHECK(t.events[0].basic == "MPI_INT");
    CHECK(t.events[0].elem == 4);
    CHECK(t.events[0].origin == std::vector<Range>{{0x1000, 0x1004}});
    CHECK(t.events[0].target_bytes == std::vector<Range>{{0, 4}});
}

TEST_CASE("damaged traces name the file and the offset, and keep what came before") {
    std::string good = header() + put_record();
    size_t second = good.size();
    std::string bytes = good + put_record();

    SECTION("cut inside a record") {
        RankTrace t = parse_trace("r.jsrma", bytes.substr(0, bytes.size() - 3));
        CHECK(t.error.find("r.jsrma: offset " + std::to_string(second) + ": truncated record") == 0);
        CHECK(t.events.size() == 1);
    }
    SECTION("cut inside a record header") {
        RankTrace t = parse_trace("r.jsrma", bytes.substr(0, second + 2));
        CHECK(t.error.find("offset " + std::to_string(second) + ": truncated record header") != std::string::npos);
        CHECK(t.events.size() == 1);
    }
    SECTION("a foreign file") {
        RankTrace t = parse_trace("notes.txt", "hello, this is not a trace at all");
        CHECK(t.error.find("notes.txt: offset 0: not a jobsentry RMA trace") == 0);
        CHECK(t.rank == -1);
    }
    SECTION("an empty file") {
        CHECK(parse_trace("e", "").error.find("offset 0") != std::string::npos);
    }
    SECTION("an unknown record type") {
        std::string bad = good + std::string(1, '\x63') + std::string(4, '\0');
        RankTrace t = parse_trace("r.jsrma", bad);
        CHECK(t.error.find("offset " + std::to_string(second) + ": malformed record: unknown record type 99") !=
              std::string::npos);
    }
    SECTION("a payload shorter than its fields") {
        std::string bad = good + std::string(1, static_cast<char>(Rec::rma)) + std::string("\x02\0\0\0", 4) + "ab";
        RankTrace t = parse_trace("r.jsrma", bad);
        CHECK(t.error.find("malformed record") != std::string::npos);
    }
    SECTION("another version") {
        std::string other = header();
        other[8] = 9;
        CHECK(parse_trace("v", other).error.find("trace version 9") != std::string::npos);
    }
    SECTION("a version 1 trace (rma records without the element size) is refused, not misread") {
        std::string v1 = header() + put_record();
        v1[8] = 1;
        RankTrace t = parse_trace("old.jsrma", v1);
        CHECK(t.error.find("old.jsrma: offset 8: trace version 1, this jobsentry reads version 2") == 0);
        CHECK(t.events.empty());
    }
}
