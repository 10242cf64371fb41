// Progress evidence: signatures, per-rank activity classification, S_out and verification verdicts.
#include "catch_compat.hpp"

#include "hang/model/progress.h"

using namespace jobsentry;

namespace {

Frame fn(uint64_t pc, const char* function, const char* module, bool mpi = false) {
    Frame f;
    f.pc = pc;
    f.function = function;
    f.module = module;
    f.mpi = mpi;
    return f;
}

const char* kApp = "/home/u/app";
const char* kLibmpi = "/usr/lib/x86_64-linux-gnu/libmpi.so.40";

// Innermost first: internal MPI frames, the MPI call, then user code.
std::vector<Frame> in_allreduce(uint64_t pc_shift, bool other_internals, const char* user_fn = "solve") {
    std::vector<Frame> s;
    if (other_internals) {
        s.push_back(fn(0x7000 + pc_shift, "mca_pml_ob1_progress", "/usr/lib/openmpi/mca_pml_ob1.so", true));
    } else {
        s.push_back(fn(0x6000 + pc_shift, "opal_progress", "/usr/lib/libopen-pal.so.40", true));
        s.push_back(fn(0x6100 + pc_shift, "ompi_coll_tuned_allreduce", "/usr/lib/openmpi/mca_coll_tuned.so", true));
    }
    s.push_back(fn(0x5000 + pc_shift, "PMPI_Allreduce", kLibmpi, true));
    s.push_back(fn(0x400 + pc_shift, user_fn, kApp));
    s.push_back(fn(0x100, "main", kApp));
    return s;
}

std::vector<Frame> computing(uint64_t leaf_pc, const char* leaf = "kernel") {
    return {fn(leaf_pc, leaf, kApp), fn(0x400, "solve", kApp), fn(0x100, "main", kApp)};
}

}  // namespace

TEST_CASE("progress signature ignores PCs and MPI internals", "[progress]") {
    const auto a = in_allreduce(0, false);
    const auto b = in_allreduce(0x24, true);
    CHECK(progress_signature(a) == progress_signature(b));
    CHECK(exact_signature(a) != exact_signature(b));
    CHECK(outermost_mpi_call(a) == "PMPI_Allreduce");
    CHECK(outermost_mpi_call(b) == "PMPI_Allreduce");

    SECTION("a different user function is a different signature") {
        CHECK(progress_signature(in_allreduce(0, false, "iterate")) != progress_signature(a));
    }
    SECTION("a profiling wrapper MPI_Allreduce -> PMPI_Allreduce counts from the outer one") {
        auto wrapped = a;
        wrapped.insert(wrapped.end() - 2, fn(0x5500, "MPI_Allreduce", kLibmpi, true));
        CHECK(outermost_mpi_call(wrapped) == "MPI_Allreduce");
        CHECK(progress_signature(wrapped) != progress_signature(a));
    }
    SECTION("outside MPI the whole chain counts, PCs do not") {
        CHECK(progress_signature(computing(0x900)) == progress_signature(computing(0x9a0)));
        CHECK(exact_signature(computing(0x900)) != exact_signature(computing(0x9a0)));
        CHECK(progress_signature(computing(0x900, "kernel")) != progress_signature(computing(0x900, "reduce")));
        CHECK(progress_signature(computing(0x900)) != progress_signature(a));
        CHECK(outermost_mpi_call(computing(0x900)).empty());
    }
    SECTION("unnamed frames count through their module only") {
        auto x = computing(0x900), y = computing(0x900);
        x[0] = fn(0x1234, "", kApp);
        y[0] = fn(0x9876, "", kApp);
        CHECK(progress_signature(x) == progress_signature(y));
        y[0].module = "/home/u/libother.so";
        CHECK(progress_signature(x) != progress_signature(y));
    }
    SECTION("function names are hashed with separators") {
        std::vector<Frame> ab_c{fn(1, "c", kApp), fn(2, "ab", kApp)};
        std::vector<Frame> a_bc{fn(1, "bc", kApp), fn(2, "a", kApp)};
        CHECK(progress_signature(ab_c) != progress_signature(a_bc));
    }
}

TEST_CASE("progress tracker classifies each rank against its last sample", "[progress]") {
    struct Step {
        const char* what;
        int rank;
        bool in_mpi;
        uint64_t exact;
        char state;
        uint64_t ticks;
        Activity expected;
    };
    const std::vector<Step> steps{
        {"first sample outside MPI", 0, false, 11, 'R', 100, Activity::computing},
        {"same stack, no CPU time", 0, false, 11, 'S', 100, Activity::idle_outside},
        {"CPU time advanced", 0, false, 11, 'R', 105, Activity::computing},
        {"stack moved, no CPU time", 0, false, 12, 'S', 105, Activity::computing},
        {"unchanged again", 0, false, 12, 'S', 105, Activity::idle_outside},
        {"stopped by a signal", 0, false, 12, 'T', 105, Activity::stopped},
        {"stopped by a tracer, CPU advanced", 0, false, 13, 't', 110, Activity::stopped},
        {"in MPI", 0, true, 14, 'R', 120, Activity::in_mpi},
        {"in MPI, nothing changed: still in_mpi", 0, true, 14, 'S', 120, Activity::in_mpi},
        {"stopped while in MPI", 0, true, 14, 'T', 120, Activity::stopped},
        {"other rank, same stack as rank 0: its own first sample", 1, true, 14, 'S', 120, Activity::in_mpi},
        {"other rank first outside", 2, false, 12, 'S', 105, Activity::computing},
    };
    ProgressTracker t;
    for (const auto& s : steps) {
        INFO(s.what);
        RankObservation o;
        o.rank = s.rank;
        o.in_mpi = s.in_mpi;
        o.exact = s.exact;
        o.state = s.state;
        o.cpu_ticks = s.ticks;
        o.main_cpu_ticks = s.ticks;  // single-threaded: the main thread's time is the process's
        CHECK(t.observe(o) == s.expected);
    }
    RankObservation o{2, false, 12, 'S', 105, 0, 105};
    CHECK(t.observe(o) == Activity::idle_outside);
    t.forget(2);
    CHECK(t.observe(o) == Activity::computing);
}

TEST_CASE("a main thread idle while the rank's other threads compute is working, not stuck", "[progress]") {
    ProgressTracker t;
    RankObservation o{0, false, 21, 'S', 1000, 0, 400};  // main thread waits (e.g. an OpenMP barrier)
    CHECK(t.observe(o) == Activity::computing);           // first sample
    o.cpu_ticks = 1040;                                  // its team used 40 ticks meanwhile
    CHECK(t.observe(o) == Activity::threads_working);
    o.cpu_ticks = 1041;                                  // only Open MPI's helper threads: a tick
    CHECK(t.observe(o) == Activity::idle_outside);
    o.cpu_ticks = 1041 + kThreadsWorkingTicks;
    CHECK(t.observe(o) == Activity::threads_working);
    o.main_cpu_ticks = 405, o.main_user_ticks = 5;      // the main thread itself ran
    CHECK(t.observe(o) == Activity::computing);
    CHECK(effective_s_out({Activity::threads_working, Activity::in_mpi}) == 0.5);
}

// Seen on a PVM guest: a rank asleep in nanosleep, watched every 100 ms, was charged 1.26 s of
// system time in 50 s by the supervisor's own ptrace stops; taken for a spinning rank, its hang
// was cleared as "too little CPU time to tell" and claimed 57 s late.
TEST_CASE("system time charged to a sleeping main thread is not running; user time or a busy kernel is", "[progress]") {
    ProgressTracker t;
    RankObservation o{0, false, 31, 'S', 1000, 0, 500, 400};
    CHECK(t.observe(o) == Activity::computing);  // first sample
    o.cpu_ticks += 2, o.main_cpu_ticks += 2;     // our stops: system time only, asleep
    CHECK(t.observe(o) == Activity::idle_outside);
    o.cpu_ticks += 2, o.main_cpu_ticks += 2;     // ...and the process's delta is the main thread's: no team working
    CHECK(t.observe(o) == Activity::idle_outside);
    o.cpu_ticks += 1, o.main_cpu_ticks += 1, o.main_user_ticks += 1;  // user time: it ran
    CHECK(t.observe(o) == Activity::computing);
    o.state = 'R', o.cpu_ticks += 3, o.main_cpu_ticks += 3;            // busy in a system call, awake
    CHECK(t.observe(o) == Activity::computing);
    o.state = 'S', o.cpu_ticks += 1 + kThreadsWorkingTicks, o.main_cpu_ticks += 1;  // asleep; the others work
    CHECK(t.observe(o) == Activity::threads_working);

    CHECK_FALSE(main_thread_ran(0, 126, false));  // the PVM case, over a verification window
    CHECK(main_thread_ran(0, 126, true));
    CHECK(main_thread_ran(3, 126, false));
    CHECK_FALSE(main_thread_ran(0, 0, true));
}

TEST_CASE("effective S_out counts only computing ranks", "[progress]") {
    using A = Activity;
    CHECK(effective_s_out({}) == 0.0);
    CHECK(effective_s_out({A::computing, A::computing}) == 1.0);
    CHECK(effective_s_out({A::computing, A::in_mpi, A::idle_outside, A::stopped}) == 0.25);
    CHECK(effective_s_out({A::in_mpi, A::idle_outside, A::stopped}) == 0.0);
    CHECK(effective_s_out({A::computing, A::in_mpi, A::in_mpi}) == Approx(1.0 / 3));
    CHECK(std::string(to_string(A::idle_outside)) == "idle_outside");
}

namespace {

RankVerification rv(int rank, bool in_mpi, const char* call = "", bool stopped = false, bool changed = false,
                    bool sampled = true) {
    RankVerification r;
    r.rank = rank;
    r.sampled = sampled;
    r.in_mpi = in_mpi;
    r.mpi_call = call;
    r.stopped = stopped;
    r.signature_changed = changed;
    return r;
}

}  // namespace

TEST_CASE("judge_verification rules", "[progress]") {
    struct Row {
        const char* what;
        std::vector<RankVerification> ranks;
        bool hang;
        std::vector<int> suspects;
        std::vector<int> progressed;
        const char* reason_has;
    };
    const char* ar = "PMPI_Allreduce";
    const std::vector<Row> rows{
        {"1. a stopped rank is the cause",
         {rv(0, true, ar), rv(1, true, ar), rv(2, false, "", true), rv(3, false)},
         true, {2}, {}, "stopped (by a signal"},
        {"1. stopped wins even inside MPI",
         {rv(0, true, ar), rv(1, true, "PMPI_Recv", true), rv(2, false)},
         true, {1}, {}, "stopped (by a signal"},
        {"2. ranks outside MPI while others wait inside",
         {rv(0, true, ar), rv(1, false), rv(2, true, ar), rv(3, false)},
         true, {1, 3}, {}, "stuck outside MPI while the others wait inside"},
        {"3. the odd MPI call out",
         {rv(0, true, ar), rv(1, true, ar), rv(2, true, "PMPI_Recv"), rv(3, true, ar)},
         true, {2}, {}, "different MPI call than the others (PMPI_Allreduce)"},
        {"4. everyone in the same call: deadlock",
         {rv(0, true, "PMPI_Recv"), rv(1, true, "PMPI_Recv"), rv(2, false, "", false, false, false)},
         true, {0, 1}, {}, "every rank waits in PMPI_Recv"},
        {"4. two equal groups in different calls: no odd one out",
         {rv(0, true, "PMPI_Recv"), rv(1, true, "PMPI_Recv"), rv(2, true, "PMPI_Send"), rv(3, true, "PMPI_Send")},
         true, {0, 1, 2, 3}, {}, "no group the odd one out"},
        {"4. everyone stuck outside MPI",
         {rv(0, false), rv(1, false)},
         true, {0, 1}, {}, "every rank is stuck outside MPI"},
        {"progress clears the alarm",
         {rv(0, true, ar), rv(1, false, "", false, true), rv(2, false, "", true)},
         false, {}, {1}, "made progress"},
        {"no rank sampled",
         {rv(0, true, ar, false, false, false), rv(1, false, "", false, false, false)},
         false, {}, {}, "no rank could be sampled"},
        {"no rank at all", {}, false, {}, {}, "no rank could be sampled"},
    };
    for (const auto& row : rows) {
        INFO(row.what);
        const Verdict v = judge_verification(row.ranks);
        CHECK(v.hang == row.hang);
        CHECK(v.suspects == row.suspects);
        CHECK(v.progressed == row.progressed);
        CHECK_THAT(v.reason, Catch::Contains(row.reason_has));
    }
}

namespace {
const char* ar_call() { return "PMPI_Allreduce"; }
}  // namespace

TEST_CASE("a suspect starved of CPU in the window blocks a hang claim; a starved victim or alike oversubscription does not", "[progress]") {
    // As NWChem's rank 2 pinned beside a busy loop (bench/slow_detection.sh): it ran 2 % of the
    // time it could run, the others about a third, and sat in another MPI call than theirs.
    const char* barrier = "PMPI_Barrier";
    std::vector<RankVerification> ranks{rv(0, true, barrier), rv(1, true, barrier), rv(2, true, "PMPI_Recv"),
                                        rv(3, true, barrier)};
    for (auto& r : ranks) r.run_share = 0.32;
    ranks[2].run_share = 0.02;
    Verdict v = judge_verification(ranks);
    CHECK_FALSE(v.hang);
    CHECK(starved_ranks(ranks) == std::vector<int>{2});
    CHECK_THAT(v.reason, Catch::Contains("rank(s) 2 starved of CPU"));
    // A starved peer that is no suspect is a victim: rank 1 spins outside MPI for good while rank 2,
    // polling beside it, gets little CPU (mpi_hang_loop): the hang is claimed, rank 1 named.
    std::vector<RankVerification> loop{rv(0, true, ar_call()), rv(1, false), rv(2, true, "PMPI_Sendrecv"),
                                       rv(3, true, ar_call())};
    for (auto& r : loop) r.run_share = 0.4;
    loop[1].run_share = 0.95;
    loop[2].run_share = 0.05;
    CHECK(starved_ranks(loop) == std::vector<int>{2});
    v = judge_verification(loop);
    CHECK(v.hang);
    CHECK(v.suspects == std::vector<int>{1});
    // Every rank oversubscribed alike (8 ranks on 2 CPUs, a quarter each): a deadlock is still claimed.
    for (auto& r : ranks) r.run_share = 0.25;
    ranks[2].run_share = 0.22;
    CHECK(starved_ranks(ranks).empty());
    v = judge_verification(ranks);
    CHECK(v.hang);
    CHECK(v.suspects == std::vector<int>{2});
    // Unknown shares (no schedstat, asleep) starve nobody.
    for (auto& r : ranks) r.run_share = -1;
    CHECK(starved_ranks(ranks).empty());
}

TEST_CASE("run_share: of the time the main thread could run, the share it ran", "[progress]") {
    StackSample a, b;
    a.sched_known = b.sched_known = true;
    a.taken_at = 100, b.taken_at = 105;  // a 5 s window
    a.main_run_ns = 1'000'000'000, b.main_run_ns = 1'100'000'000;  // ran 0.1 s
    a.main_wait_ns = 0, b.main_wait_ns = 4'900'000'000;             // waited 4.9 s
    CHECK(run_share(a, b) == Approx(0.02));
    b.main_wait_ns = 100'000'000;  // runnable 0.2 s of 5 s: asleep most of it, nothing to say
    CHECK(run_share(a, b) == -1);
    b.sched_known = false;
    CHECK(run_share(a, b) == -1);
}

TEST_CASE("progress tracker reports whether the call chain moved; S_move", "[progress]") {
    ProgressTracker t;
    bool moved = false;
    RankObservation o{0, true, 1, 'R', 10, 100};
    t.observe(o, &moved);
    CHECK(moved);  // first sample: no evidence of standing still
    o.exact = 2;   // PCs change, chain does not
    t.observe(o, &moved);
    CHECK_FALSE(moved);
    o.progress = 101;
    t.observe(o, &moved);
    CHECK(moved);
    RankObservation other{1, false, 5, 'S', 3, 7};
    t.observe(other, &moved);
    CHECK(moved);
    t.observe(other, &moved);
    CHECK_FALSE(moved);

    CHECK(share_moved({}) == 0.0);
    CHECK(share_moved({false, false}) == 0.0);
    CHECK(share_moved({true, false, false, true}) == 0.5);
    CHECK(share_moved({true}) == 1.0);
}
