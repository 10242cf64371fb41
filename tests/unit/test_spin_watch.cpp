// The spin watch (hang/model/spin_watch.h): which confirmed suspects it watches, and when a suspect
// spinning in one call chain stands or is cleared.
#include "catch_compat.hpp"

#include "hang/model/spin_watch.h"

using namespace jobsentry;

namespace {

constexpr double kTick = 0.01;

StackSample computing(const char* fn, uint64_t main_ticks, char state = 'R') {
    StackSample s;
    s.status = SampleStatus::ok;
    s.state = state;
    s.main_cpu_ticks = main_ticks;
    s.cpu_ticks = main_ticks;
    s.frames = {{0x1000, fn, "/home/u/app", false}, {0x900, "main", "/home/u/app", false}};
    return s;
}

RankVerification suspect_check(int rank, uint64_t cpu, uint64_t main_cpu, bool main_ran) {
    RankVerification c;
    c.rank = rank;
    c.sampled = true;
    c.cpu_ticks_used = cpu;
    c.main_cpu_ticks_used = main_cpu;
    c.main_ran = main_ran;
    return c;
}

}  // namespace

TEST_CASE("spin_watch_need: only a suspect that spins outside MPI is watched") {
    const std::vector<int> suspects{1};
    CHECK(spin_watch_need(suspect_check(1, 50, 50, true), suspects) == SpinWatchNeed::watch);
    CHECK(spin_watch_need(suspect_check(2, 50, 50, true), suspects) == SpinWatchNeed::none);  // no suspect
    auto in_mpi = suspect_check(1, 50, 50, true);
    in_mpi.in_mpi = true;
    CHECK(spin_watch_need(in_mpi, suspects) == SpinWatchNeed::none);
    auto stopped = suspect_check(1, 50, 50, true);
    stopped.stopped = true;
    CHECK(spin_watch_need(stopped, suspects) == SpinWatchNeed::none);
    CHECK(spin_watch_need(suspect_check(1, 0, 0, false), suspects) == SpinWatchNeed::none);  // frozen
    // A frozen main thread with Open MPI's helper threads' 2 ticks: frozen, nothing to watch.
    CHECK(spin_watch_need(suspect_check(1, 2, 0, false), suspects) == SpinWatchNeed::none);
    // Its other threads computed the window's worth: an OpenMP team works while the master waits.
    CHECK(spin_watch_need(suspect_check(1, kThreadsWorkingWindowTicks, 0, false), suspects) ==
          SpinWatchNeed::threads_work);
}

TEST_CASE("a suspect that spins the window in one chain stands; one that moves is cleared") {
    SpinWatch watch(computing("loop", 100), 2.0, kTick);
    CHECK_FALSE(watch.stands());
    CHECK(watch.wall_limit_seconds() == Approx(20.0));
    CHECK(watch.look(computing("loop", 150)) == SpinWatch::Look::go_on);
    CHECK_FALSE(watch.stands());
    CHECK(watch.ran_seconds() == Approx(0.5));
    CHECK(watch.look(computing("loop", 300)) == SpinWatch::Look::go_on);
    CHECK(watch.stands());  // 2 s of CPU time in the chain

    SpinWatch moving(computing("phase_a", 100), 2.0, kTick);
    CHECK(moving.look(computing("phase_a", 150)) == SpinWatch::Look::go_on);
    CHECK(moving.look(computing("phase_b", 200)) == SpinWatch::Look::moved);
}

TEST_CASE("a suspect asleep at every one of 20 looks stands; asleep at fewer, or once awake, it must spin") {
    SpinWatch asleep(computing("poll_sleep", 100, 'S'), 60.0, kTick);
    for (int i = 0; i < SpinWatch::kAsleepLooks - 1; ++i) asleep.look(computing("poll_sleep", 101, 'S'));
    CHECK_FALSE(asleep.stands());
    asleep.look(computing("poll_sleep", 102, 'S'));
    CHECK(asleep.stands());

    SpinWatch woke(computing("poll_sleep", 100, 'S'), 60.0, kTick);
    woke.look(computing("poll_sleep", 101, 'R'));
    for (int i = 0; i < 2 * SpinWatch::kAsleepLooks; ++i) woke.look(computing("poll_sleep", 102, 'S'));
    CHECK_FALSE(woke.stands());  // runnable once, with too little CPU time: not proven
}

TEST_CASE("the CPU time counted never goes back (a look older than the latest)") {
    SpinWatch watch(computing("loop", 100), 1.0, kTick);
    watch.look(computing("loop", 180));
    watch.look(computing("loop", 170));
    CHECK(watch.ran_seconds() == Approx(0.8));
}
