// Trace file parsing of the RMA checker: good records, and every kind of damage
// named by file and offset (rmacheck/analysis/trace_reader.h).
#include "catch_compat.hpp"

#include "tools/rmacheck/analysis/report.h"
#include "tools/rmacheck/analysis/threads.h"
#include "tools/rmacheck/analysis/trace_reader.h"

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
std::string thread_record(uint32_t tid) {
    Encoder e;
    e.put<uint32_t>(tid);
    return e.record(Rec::thread);
}
std::string local_record() {
    Encoder e;
    e.put<uint64_t>(0x401234), e.put<uint64_t>(0x1000), e.put<uint32_t>(4), e.put<uint8_t>(1);
    return e.record(Rec::local);
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
    SECTION("a version 3 trace (no omp records) is read as it is") {
        std::string v3 = header() + thread_record(7) + put_record();
        v3[8] = 3;
        RankTrace t = parse_trace("v3.jsrma", v3);
        CHECK(t.error.empty());
        CHECK(t.events.size() == 1);
        CHECK(t.omp_threads.empty());
    }
    SECTION("a version 2 trace (no thread records) is refused, not misread") {
        std::string v2 = header() + put_record();
        v2[8] = 2;
        RankTrace t = parse_trace("old.jsrma", v2);
        CHECK(t.error.find("old.jsrma: offset 8: trace version 2, this jobsentry reads versions 3 to 8") == 0);
        CHECK(t.events.empty());
    }
}

TEST_CASE("omp records: read with their thread, not counted as MPI calls; an unknown kind is refused") {
    auto omp = [](uint8_t kind, uint64_t a, uint64_t b) {
        Encoder e;
        e.put<uint8_t>(kind), e.put<uint64_t>(a), e.put<uint64_t>(b);
        return e.record(Rec::omp);
    };
    std::string bytes = header() + thread_record(7) + put_record() + thread_record(8) +
                        omp(static_cast<uint8_t>(trace::OmpKind::implicit_begin), 1, 2);
    RankTrace t = parse_trace("o.jsrma", bytes);
    REQUIRE(t.error.empty());
    REQUIRE(t.events.size() == 2);
    CHECK(t.events[1].type == Rec::omp);
    CHECK(t.events[1].thread == 8);
    CHECK(t.events[1].id == 1);
    CHECK(t.events[1].id2 == 2);
    CHECK(t.threads.size() == 1);  // thread 8 made no MPI call nor access
    CHECK(t.omp_threads == std::set<uint32_t>{8});
    CHECK(t.thread_order == std::vector<uint32_t>{7, 8});
    CHECK_FALSE(ompt_ordered(t));  // thread 7 calls MPI but took no part in OpenMP
    RankTrace bad = parse_trace("b.jsrma", header() + omp(200, 0, 0));
    CHECK(bad.error.find("malformed record: unknown OpenMP event") != std::string::npos);
}

TEST_CASE("thread records name the thread of the records after them") {
    std::string bytes = header() + thread_record(100) + put_record() + put_record() + thread_record(101) +
                        put_record() + local_record() + thread_record(100) + local_record();
    RankTrace t = parse_trace("r.jsrma", bytes);
    REQUIRE(t.error.empty());
    REQUIRE(t.events.size() == 5);
    CHECK(t.events[0].thread == 100);
    CHECK(t.events[1].thread == 100);
    CHECK(t.events[2].thread == 101);
    CHECK(t.events[3].thread == 101);
    CHECK(t.events[4].thread == 100);
    CHECK(t.threads.size() == 2);
    CHECK(t.threads.at(100).mpi_calls == 2);
    CHECK(t.threads.at(100).accesses == 1);
    CHECK(t.threads.at(101).mpi_calls == 1);
    CHECK(t.threads.at(101).accesses == 1);
}

TEST_CASE("a rank with several threads gets a note saying their order was not checked") {
    struct Case {
        std::string bytes;
        std::string note;  // "" : none
    };
    const std::string one = thread_record(7) + put_record() + local_record();
    const std::string two_calling = thread_record(7) + put_record() + thread_record(8) + put_record();
    const std::string one_calling_two_accessing = thread_record(7) + put_record() + thread_record(8) + local_record();
    const Case cases[] = {
        {header() + put_record(), ""},  // no thread record at all (one sequence)
        {header() + one, ""},
        {header() + two_calling, "rank 2: MPI calls from 2 threads; their order among threads was not checked: "
                                 "no OpenMP/OMPT information"},
        {header() + one_calling_two_accessing,
         "rank 2: MPI calls from 1 thread, loads/stores of window memory or RMA buffers from 1 thread; their order"},
    };
    for (const auto& c : cases) {
        std::vector<RankTrace> traces{parse_trace("r.jsrma", c.bytes)};
        REQUIRE(traces[0].error.empty());
        std::vector<std::string> notes = thread_notes(traces);
        if (c.note.empty()) {
            CHECK(notes.empty());
        } else {
            REQUIRE(notes.size() == 1);
            CHECK(notes[0].rfind(c.note, 0) == 0);
        }
    }
}

TEST_CASE("win_create records carry the accumulate_ordering asked for; version 4 files mean MPI's default") {
    auto win = [](bool with_ordering, uint8_t bits) {
        Encoder e;
        e.put<uint32_t>(7), e.put<uint32_t>(1), e.put<uint32_t>(0), e.put<uint64_t>(0x1000), e.put<uint64_t>(64);
        e.put<int32_t>(1), e.put<uint8_t>(1), e.put<uint64_t>(0x401000);
        if (with_ordering) e.put<uint8_t>(bits);
        return e.record(Rec::win_create);
    };
    CHECK(parse_trace("r", header() + win(true, trace::acc_raw)).wins.at(7).acc_ordering == trace::acc_raw);
    CHECK(parse_trace("r", header() + win(false, 0)).wins.at(7).acc_ordering == trace::acc_all);
    CHECK(trace::accumulate_ordering_bits("rar,raw,war,waw") == trace::acc_all);
    CHECK(trace::accumulate_ordering_bits("none") == 0);
    CHECK(trace::accumulate_ordering_bits(" waw , rar") == (trace::acc_waw | trace::acc_rar));
    CHECK(trace::accumulate_ordering_bits("raw,bogus") == trace::acc_raw);  // unknown words order nothing
    CHECK(trace::accumulate_ordering_bits("") == 0);
}

TEST_CASE("sampled records: mode 1's watched operations, summed over ranks into one note") {
    auto sampled = [](uint64_t ops, uint64_t watched) {
        Encoder e;
        e.put<uint64_t>(ops), e.put<uint64_t>(watched);
        return e.record(Rec::sampled);
    };
    RankTrace a = parse_trace("a.jsrma", header(0) + thread_record(7) + put_record() + sampled(1000, 100));
    REQUIRE(a.error.empty());
    CHECK(a.operations == 1000);
    CHECK(a.watched == 100);
    CHECK(a.events.size() == 1);  // not an event
    RankTrace b = parse_trace("b.jsrma", header(1) + sampled(500, 500));
    CHECK(sampling_note({b}).empty());  // every one watched: nothing to say
    const std::string note = sampling_note({a, b});
    CHECK(note.find("watched the origin buffers of 600 of 1500 RMA operations (40.00 %)") != std::string::npos);
    CHECK(note.find("--check-all") != std::string::npos);
    CHECK(sampling_note({parse_trace("c.jsrma", header())}).empty());  // an older trace: no record, all watched
    RankTrace bad = parse_trace("d.jsrma", header() + sampled(5, 6));
    CHECK(bad.error.find("more operations watched than issued") != std::string::npos);
}
