// A sample as a word of the supervisor's log and back, and verification judged from such records
// as bench/model_replay judges it.
#include "catch_compat.hpp"

#include "hang/model/progress.h"
#include "hang/model/sample_record.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

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
    CHECK(back.stop_seconds == 0);  // a sample with no stop time (a node agent's) writes none
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

TEST_CASE("verify_rank: a rank seen stopped in every look that ran between them is throttled, not stopped") {
    // The verification that cancelled a healthy job: ranks 2 and 3 of node n2 stopped 60 ms of every
    // 100 ms from outside (slurm_multi_node_slow_requeue) on a loaded machine; rank 3 was caught in
    // T in all five looks of a 1.1-s window, its call chain unchanged, while it ran 140 ms between them.
    const std::vector<std::string> records{
        "r0=R,p=5fc001c8,c=1301,m=1301,u=670,t=1096.245,r=13025336443,w=36328948664,i=1,f=PMPI_Allreduce",
        "r1=R,p=5fc001c8,c=1306,m=1305,u=668,t=1096.248,r=13063651240,w=36288375629,i=1,f=PMPI_Allreduce",
        "r2=T,p=5fc001c8,c=1076,m=1074,u=563,t=0.000,r=10749672644,w=30326961339,i=1,f=PMPI_Allreduce",
        "r3=T,p=793cc503,c=1044,m=1042,u=561,t=0.000,r=10428726648,w=30038607535,i=1,f=PMPI_Waitall",
        "r4=R,p=5fc001c8,c=1300,m=1299,u=628,t=0.000,r=13004912845,w=36391241211,i=1,f=PMPI_Allreduce",
        "r5=R,p=5fc001c8,c=1289,m=1288,u=634,t=0.000,r=12889210908,w=36494555244,i=1,f=PMPI_Allreduce",
        "r0=R,p=c65c014e,c=1310,m=1310,u=674,t=1096.552,r=13107192100,w=36555035630,i=0",
        "r1=R,p=793cc503,c=1314,m=1314,u=671,t=1096.556,r=13149791148,w=36510022619,i=1,f=PMPI_Waitall",
        "r2=R,p=793cc503,c=1082,m=1079,u=565,t=0.000,r=10804148681,w=30466592655,i=1,f=PMPI_Waitall",
        "r3=T,p=793cc503,c=1050,m=1047,u=564,t=0.000,r=10481340037,w=30173116888,i=1,f=PMPI_Waitall",
        "r4=R,p=793cc503,c=1310,m=1310,u=633,t=0.000,r=13104486126,w=36607644766,i=1,f=PMPI_Waitall",
        "r5=R,p=793cc503,c=1298,m=1298,u=640,t=0.000,r=12989551506,w=36718203336,i=1,f=PMPI_Waitall",
        "r0=R,p=793cc503,c=1315,m=1315,u=676,t=1096.718,r=13154562878,w=36667743469,i=1,f=PMPI_Waitall",
        "r1=R,p=c65c014e,c=1320,m=1318,u=673,t=1096.724,r=13198079400,w=36629634617,i=0",
        "r2=T,p=793cc503,c=1084,m=1082,u=567,t=0.000,r=10829853002,w=30535687104,i=1,f=PMPI_Waitall",
        "r3=T,p=793cc503,c=1052,m=1050,u=566,t=0.000,r=10504045842,w=30221829626,i=1,f=PMPI_Waitall",
        "r4=R,p=8955b5b4,c=1315,m=1315,u=635,t=0.000,r=13158707997,w=36721316363,i=0",
        "r5=R,p=793cc503,c=1303,m=1303,u=642,t=0.000,r=13041484935,w=36817227237,i=1,f=PMPI_Waitall",
        "r0=R,p=5fc001c8,c=1323,m=1323,u=680,t=1097.002,r=13240115162,w=36863736797,i=1,f=PMPI_Allreduce",
        "r1=R,p=5fc001c8,c=1327,m=1327,u=678,t=1097.008,r=13279700039,w=36826686980,i=1,f=PMPI_Allreduce",
        "r2=T,p=793cc503,c=1088,m=1086,u=569,t=0.000,r=10866025998,w=30631587897,i=1,f=PMPI_Waitall",
        "r3=T,p=793cc503,c=1056,m=1053,u=568,t=0.000,r=10539032638,w=30314887194,i=1,f=PMPI_Waitall",
        "r4=R,p=5fc001c8,c=1324,m=1324,u=638,t=0.000,r=13246470967,w=36916791703,i=1,f=PMPI_Allreduce",
        "r5=R,p=5fc001c8,c=1313,m=1312,u=647,t=0.000,r=13128989653,w=37015562627,i=1,f=PMPI_Allreduce",
        "r0=R,p=5fc001c8,c=1331,m=1331,u=684,t=1097.299,r=13317135959,w=37078644414,i=1,f=PMPI_Allreduce",
        "r1=R,p=5fc001c8,c=1335,m=1334,u=681,t=1097.300,r=13351975609,w=37042542477,i=1,f=PMPI_Allreduce",
        "r2=T,p=5fc001c8,c=1093,m=1090,u=571,t=0.000,r=10909808095,w=30746109795,i=1,f=PMPI_Allreduce",
        "r3=T,p=793cc503,c=1058,m=1055,u=569,t=0.000,r=10563301665,w=30426892405,i=1,f=PMPI_Waitall",
        "r4=R,p=5fc001c8,c=1333,m=1332,u=641,t=0.000,r=13329518366,w=37121213300,i=1,f=PMPI_Allreduce",
        "r5=R,p=5fc001c8,c=1321,m=1320,u=648,t=0.000,r=13213686639,w=37227276356,i=1,f=PMPI_Allreduce",
    };
    std::map<int, std::vector<StackSample>> windows;
    for (const auto& record : records) {
        auto s = parse_sample_record(std::string_view(record).substr(3));
        REQUIRE(s.has_value());
        windows[record[1] - '0'].push_back(*s);
    }
    std::vector<RankVerification> checks;
    for (const auto& [rank, window] : windows) checks.push_back(verify_rank(rank, window, nullptr));
    REQUIRE(checks.size() == 6);
    CHECK_FALSE(checks[3].stopped);      // its main thread ran 13 ticks, 134 ms, between its looks
    CHECK(checks[3].seen_stopped);
    CHECK(checks[3].cpu_ticks_used == 14);
    const Verdict still = judge_still_verification(checks, {2, 3});
    CHECK_FALSE(still.hang);
    CHECK(still.reason == "rank(s) 2,3 moved on");
    CHECK_FALSE(judge_verification(checks).hang);

    // The same looks without CPU time of the main thread between them (one tick: a look's own cost)
    // are a stopped rank.
    std::vector<StackSample> stopped = windows[3];
    const StackSample first = stopped.front();
    for (auto& s : stopped) {
        s.main_cpu_ticks = first.main_cpu_ticks + (&s == &stopped.back());
        s.main_run_ns = first.main_run_ns + (&s == &stopped.back() ? 50'000 : 0);
        s.cpu_ticks = first.cpu_ticks + (&s == &stopped.back() ? 30 : 0);  // other threads' time says nothing
    }
    CHECK(verify_rank(3, stopped, nullptr).stopped);
    // In D in every look while running between them: synchronous I/O at work, not blocked.
    std::vector<StackSample> writing = windows[3];
    for (auto& s : writing) s.state = 'D';
    CHECK_FALSE(verify_rank(3, writing, nullptr).stopped);
}

TEST_CASE("a record carries how long the rank took to stop, to the microsecond") {
    StackSample s = in_mpi_sample("solve", 10, 1);
    s.stop_seconds = 0.0273;  // a rank off its CPU: stopped when it was next scheduled
    const std::string text = sample_record(s);
    CHECK(text.find(",s=27300,") != std::string::npos);
    CHECK(read_back(s).stop_seconds == Approx(0.0273));
    CHECK_FALSE(parse_sample_record("R,p=1,c=1,m=1,u=1,t=1.000,s=x,i=0").has_value());
}
