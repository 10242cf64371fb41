// Clock readings in seconds, as doubles: CLOCK_MONOTONIC for intervals and
// deadlines, CLOCK_REALTIME for timestamps shown to people.
#pragma once

#include <ctime>

namespace jobsentry {

inline double monotonic_now() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

inline double unix_now() {
    timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

}  // namespace jobsentry
