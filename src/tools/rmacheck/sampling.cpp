#include "tools/rmacheck/sampling.h"

#include <algorithm>

namespace rmacheck {

Sampler::Sampler(uint64_t seed, SamplingPolicy policy, bool enabled)
    : policy_(policy), enabled_(enabled), state_(seed ? seed : 0x9E3779B97F4A7C15ULL) {}

uint64_t Sampler::next_random() {  // xorshift64*: no period the program's loops could fall in step with
    state_ ^= state_ >> 12, state_ ^= state_ << 25, state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1DULL;
}

uint64_t Sampler::level(uint64_t watched_intervals) const {
    return std::min<uint64_t>(policy_.levels, watched_intervals / std::max<uint64_t>(policy_.burst, 1));
}

bool Sampler::watch(uint64_t site) {
    ++operations_;
    bool watch = true;
    if (enabled_) {
        Site& s = sites_[site];
        if (++s.operations > policy_.warmup) {
            if (s.decided_in != interval_) {
                s.decided_in = interval_;
                // 4^-level: the top 2*level bits of a random word all zero.
                const uint64_t k = level(s.watched_intervals);
                s.watching = k == 0 || (next_random() >> (64 - 2 * k)) == 0;
                if (s.watching) ++s.watched_intervals;
            }
            watch = s.watching;
        }
    }
    if (watch) ++watched_;
    return watch;
}

}  // namespace rmacheck
