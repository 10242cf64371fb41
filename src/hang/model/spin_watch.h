// The spin watch: the last step of verifying a hang whose suspect computes outside MPI. A
// suspect that gets CPU time may be in an endless loop or in a long computation that happened to
// stay in one call chain for the few verification samples; it is watched closely until it has run
// the window (--spin-verify-ms) of CPU time in that chain: a computation moves to another
// function, a loop never does. Pure: the watcher (watcher_verify.cpp) feeds it live looks,
// bench/model_replay a recorded job's, so both decide alike.
//
// Why CPU time, not wall time: on a loaded node a 4 s compute phase lasts 20 s of wall time, and a
// wall-time window cancelled such a healthy phase (three benches at once). A rank starved of CPU is
// watched at most kWallFactor times the window in wall time; if it has not run the window by then,
// nothing is known and the alarm is cleared (its run must grow further): three benches at once gave
// a healthy dgemm_phase rank 4 s of CPU in 50 s, and confirming then cancelled a 2-4 s phase.
// A rank asleep (state S) at every one of kAsleepLooks or more looks is not looping, whatever CPU
// time it is charged: on a PVM guest a sleeping CP2K rank was charged 1-2 s in 50 s of watching,
// too little to pass the window and enough to look busy, and its hang was cleared. A spinning rank,
// starved or not, is R (running or runnable); so is a long computation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hang/model/progress.h"

namespace jobsentry {

enum class SpinWatchNeed {
    none,                // not a suspect computing outside MPI: nothing to watch
    threads_work,        // its main thread waits while its other threads work: the alarm is cleared
    watch,               // spinning in one call chain outside MPI: watch it
};
// What a confirmed verdict's rank needs. A suspect whose main thread did not run is frozen, not
// spinning: nothing to watch, unless its other threads worked meanwhile (a master waiting at an
// OpenMP barrier while its team computes). Watching a frozen rank with a little CPU time from Open
// MPI's helper threads (2 ticks) cleared a sleeping CP2K rank after 50 s of watching, every time.
SpinWatchNeed spin_watch_need(const RankVerification& rank, const std::vector<int>& suspects);

class SpinWatch {
public:
    static constexpr int kAsleepLooks = 20;
    static constexpr double kWallFactor = 10;

    enum class Look { go_on, moved };
    // latest: the suspect's last sample of the verification; window_s: --spin-verify-ms in
    // seconds; tick_s: the length of a CPU clock tick.
    SpinWatch(const StackSample& latest, double window_s, double tick_s);

    // One look (status ok), in order: moved when its call chain left the suspect's.
    Look look(const StackSample& sample);
    // The suspect ran the window of CPU time in its chain, or slept at every one of enough looks:
    // its hang stands.
    bool stands() const;
    double ran_seconds() const;
    double wall_limit_seconds() const { return kWallFactor * window_s_; }

private:
    uint64_t signature_;
    uint64_t cpu_at_start_, cpu_now_;
    double window_s_, tick_s_;
    int looks_ = 0, asleep_ = 0;
};

}  // namespace jobsentry
