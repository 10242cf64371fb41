// A sample as a word of the supervisor's log and back, and verification judged from such records
// as bench/model_replay judges it.
#include "catch_compat.hpp"

#include "hang/model/progress.h"
#include "hang/model/sample_record.h"

using namespace jobsentry;

namespace {

StackSample in_mpi_sample(const char* user_fn, uint64_t cpu, double at) {
    StackSample s;
    s.status = SampleStatus::ok;
    s.state = 'R';
    s.in_mpi = true;
    s.cpu_ticks = cpu;
    s.main_cpu_ticks = cpu - 2;
    s.main_user_ticks = cpu - 5;
    s.sched_known = true;
    s.main_run_ns = cpu * 10'000'000;
    s.main_wait_ns = 123456;
    s.taken_at = at;
    Frame mpi{0x6000, "PMPI_Allreduce", "/usr/lib/libmpi.so.40", true};
    Frame user{0x1000, user_fn, "/home/u/app", false};
    Frame main_fn{0x900, "main", "/home/u/app", false};
    s.frames = {mpi, user, main_fn};
    return s;
}

StackSample read_back(const StackSample& s) {
    auto parsed = parse_sample_record(sample_record(s));
    REQUIRE(parsed.has_value());
    return *parsed;
}

}  // namespace

TEST_CASE("a sample record reads back with what verification needs") {
    const StackSample s = in_mpi_sample("solve", 500, 12.25);
    const std::string text = sample_record(s);
    CHECK(text.find(' ') == std::string::npos);  // one word of a log line
    const StackSample back = read_back(s);
    CHECK(back.digest_only);
    CHECK(back.status == SampleStatus::ok);
    CHECK(back.state == 'R');
    CHECK(back.in_mpi);
    CHECK(back.cpu_ticks == 500);
    CHECK(back.main_cpu_ticks == 498);
    CHECK(back.main_user_ticks == 495);
    CHECK(back.sched_known);
    CHECK(back.main_run_ns == 5'000'000'000ull);
    CHECK(back.main_wait_ns == 123456);
    CHECK(back.taken_at == Approx(12.25));
    CHECK(outermost_mpi_call(back) == "PMPI_Allreduce");
    CHECK(progress_signature(back) == (progress_signature(s) & 0xffffffffull));
}

TEST_CASE("a record without scheduler times reads back as unknown, and text that is no record is refused") {
    StackSample s = in_mpi_sample("solve", 10, 1);
    s.sched_known = false;
    s.in_mpi = false;
    const StackSample back = read_back(s);
    CHECK_FALSE(back.sched_known);
    CHECK_FALSE(back.in_mpi);
    CHECK(outermost_mpi_call(back).empty());
    CHECK_FALSE(parse_sample_record("").has_value());
    CHECK_FALSE(parse_sample_record("in_mpi+").has_value());
    CHECK_FALSE(parse_sample_record("S,c=12,t=1.0").has_value());       // no call chain digest
    CHECK_FALSE(parse_sample_record("S,p=zz,t=1.0").has_value());       // not hexadecimal
    CHECK_FALSE(parse_sample_record("S,p=1f,t=1.0,r=5").has_value());  // run time without wait time
    CHECK_FALSE(parse_sample_record("S,p=1f,t=1.0,x=5").has_value());  // an unknown field
}

TEST_CASE("verification from records: a rank that changed its call chain progressed; all in one call is a hang") {
    // Two ranks, both in MPI_Allreduce from the same user function in every look: no progress.
    std::vector<RankVerification> checks;
    for (int rank = 0; rank < 2; ++rank) {
        const StackSample before = read_back(in_mpi_sample("solve", 100, 1.0));
        std::vector<StackSample> window;
        for (int k = 1; k <= 5; ++k) window.push_back(read_back(in_mpi_sample("solve", 100 + 10 * k, 1.0 + k)));
        checks.push_back(verify_rank(rank, window, &before));
    }
    CHECK_FALSE(checks[0].signature_changed);
    CHECK(checks[0].in_mpi);
    CHECK(checks[0].mpi_call == "PMPI_Allreduce");
    CHECK(checks[0].cpu_ticks_used == 40);
    CHECK(checks[0].main_ran);
    CHECK(judge_verification(checks).hang);
    // Rank 1 reached the Allreduce from another function in its last look: it moved on.
    const StackSample before = read_back(in_mpi_sample("solve", 100, 1.0));
    std::vector<StackSample> window;
    for (int k = 1; k <= 4; ++k) window.push_back(read_back(in_mpi_sample("solve", 100 + 10 * k, 1.0 + k)));
    window.push_back(read_back(in_mpi_sample("exchange", 150, 6.0)));
    checks[1] = verify_rank(1, window, &before);
    CHECK(checks[1].signature_changed);
    CHECK_FALSE(judge_verification(checks).hang);
}

TEST_CASE("verify_rank: no samples in the window is not sampled; stopped throughout is stopped") {
    CHECK_FALSE(verify_rank(3, {}, nullptr).sampled);
    std::vector<StackSample> window;
    for (int k = 0; k < 3; ++k) {
        StackSample s = in_mpi_sample("solve", 100, k);
        s.state = 'T';
        window.push_back(read_back(s));
    }
    const RankVerification v = verify_rank(0, window, nullptr);
    CHECK(v.sampled);
    CHECK(v.stopped);
    CHECK(v.seen_stopped);
}
