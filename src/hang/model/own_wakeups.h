// Tells a rank that sleeps in a loop (a timed nanosleep per iteration, usleep
// between polls) from one asleep for good, when both are asleep at the same
// place at every look. The evidence is how often the rank's main thread went
// to sleep (its voluntary context switches), read just before each of our
// looks: each look stops a sleeping thread and lets it sleep again, exactly 2
// (measured on sleeping, stopped and pipe-blocked processes); more means it
// woke up by itself, which is progress. Pure: the caller reads /proc.
#pragma once

#include <cstdint>
#include <map>

namespace jobsentry {

class OwnWakeups {
public:
    // The count read just before a look at the rank.
    void reading(int rank, uint64_t sleeps);
    // A look at the rank was made (counted whether or not it stopped it: an
    // extra allowance only makes a clearance less likely).
    void looked(int rank);
    // Slept more often between the first and the last reading than our looks
    // account for, with one to spare for a stray wake-up.
    bool woke_by_itself(int rank) const;

private:
    struct Counts {
        uint64_t first = 0, last = 0;
        int looks = 0;          // since the first reading
        int looks_at_last = 0;  // between the first and the last reading
    };
    std::map<int, Counts> counts_;
};

}  // namespace jobsentry
