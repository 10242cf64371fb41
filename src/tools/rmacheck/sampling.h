// Mode 1's sampling of origin buffers (pure; the preload module asks it per RMA
// operation). Watching a buffer with page protection costs two mprotects per
// MPI call while it is pending and a fault per unrelated access to its pages:
// on a VM where an mprotect pair costs 16 us, a program issuing an operation
// every 10 us ran 23-100x slower. Like LiteRace (Marino et al., PLDI 2009,
// "cold-region hypothesis"), a call site's first operations are all watched
// and its later ones sampled at a falling rate: a race on a path the program
// takes often is met early, and a hot site costs little. What is sampled:
// the program's loads and stores of origin buffers only. Conflicts between
// RMA operations come from the recorded calls and are checked in every one.
//
// The unit of sampling is a site's completion interval (from one completion
// call, flush/unlock/fence/wait..., to the next): every operation of a site in
// an interval is watched or none is, so one watched Get among 512 does not
// make the other 511 pay for a protected page, and a watched interval is seen
// whole. Each site decides with its own rate.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

namespace rmacheck {

struct SamplingPolicy {
    uint64_t warmup = 64;        // a call site's first operations: all watched
    uint64_t burst = 4;          // watched intervals per rate level
    unsigned levels = 6;         // rates 1, 1/4, ... 1/4^levels (the floor: 1/4096)
};

// The rule in words, for --help and the report's note: "every one of a call site's first 64, then
// sampled completion intervals, down to 1 in 4096".
inline std::string sampling_rule(const SamplingPolicy& p = {}) {
    return "every one of a call site's first " + std::to_string(p.warmup) +
           ", then sampled completion intervals, down to 1 in " + std::to_string(1ULL << (2 * p.levels));
}

class Sampler {
public:
    explicit Sampler(uint64_t seed, SamplingPolicy policy = {}, bool enabled = true);
    // Whether to watch the buffers of this operation, issued at `site` (its return address).
    bool watch(uint64_t site);
    // A completion call: the next operation of each site starts a new interval (and a new decision).
    void interval_ended() { ++interval_; }

    uint64_t operations() const { return operations_; }
    uint64_t watched() const { return watched_; }
    // The probability with which a site with this many watched intervals past its warm-up watches
    // its next one: 4^-level.
    double rate(uint64_t watched_intervals) const { return 1.0 / static_cast<double>(1ULL << (2 * level(watched_intervals))); }

private:
    struct Site {
        uint64_t operations = 0, watched_intervals = 0;
        uint64_t decided_in = UINT64_MAX;  // the interval of its last decision
        bool watching = true;
    };
    uint64_t next_random();
    uint64_t level(uint64_t watched_intervals) const;  // min(levels, watched_intervals / burst)

    SamplingPolicy policy_;
    bool enabled_;
    uint64_t state_;
    std::unordered_map<uint64_t, Site> sites_;
    uint64_t interval_ = 0;
    uint64_t operations_ = 0, watched_ = 0;
};

}  // namespace rmacheck
