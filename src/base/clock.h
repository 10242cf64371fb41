// Clock readings in seconds, as doubles: CLOCK_MONOTONIC for intervals and
// deadlines, CLOCK_REALTIME for timestamps shown to people, and CPU time:
// the calling thread's (the cost of a step it runs: only that thread's work,
// whatever other threads do meanwhile) and the whole process's (what the
// process costs the node: every thread, start-up and reports included).
#pragma once

#include <ctime>

namespace jobsentry {

inline double clock_seconds(clockid_t clock) {
    timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

inline double monotonic_now() { return clock_seconds(CLOCK_MONOTONIC); }
inline double unix_now() { return clock_seconds(CLOCK_REALTIME); }
inline double thread_cpu_now() { return clock_seconds(CLOCK_THREAD_CPUTIME_ID); }
inline double process_cpu_now() { return clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }

}  // namespace jobsentry
