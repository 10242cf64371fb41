// Monotone radix heap of POD events keyed by time: the simulator only ever
// inserts events at or after the time of the last one removed, which lets a
// push cost one bit scan and a pop amortise to a few moves. Bucket vectors keep
// their capacity, so a long run allocates nothing per event. Events of equal
// time leave in the order they came (bucket 0 is read as a FIFO), so that ops
// ready at the same moment run in program order.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tools/simulator/huge_pages.h"

namespace jobsentry::sim {

template <class Event>  // Event has a std::uint64_t member `time`
class RadixHeap {
public:
    bool empty() const { return size_ == 0; }
    std::uint64_t size() const { return size_; }
    std::uint64_t last() const { return last_; }

    // Room for n events at the current time (the ops ready at the start), so
    // that bucket 0 is not regrown (and its huge pages zeroed again) on the way.
    void reserve_now(size_t n) { buckets_[0].reserve(n); }

    void push(const Event& e) {  // precondition: e.time >= last()
        buckets_[bucket(e.time)].push_back(e);
        ++size_;
    }

    Event pop() {  // precondition: !empty()
        if (head0_ == buckets_[0].size()) {
            buckets_[0].clear();
            head0_ = 0;
            size_t i = 1;
            while (buckets_[i].empty()) ++i;
            BigVector<Event>& b = buckets_[i];
            std::uint64_t lo = b[0].time;
            for (const Event& e : b) lo = e.time < lo ? e.time : lo;
            last_ = lo;
            for (const Event& e : b) buckets_[bucket(e.time)].push_back(e);
            b.clear();
        }
        --size_;
        return buckets_[0][head0_++];
    }

    // The event that the k-th pop() from now will return if it is already
    // known (nullptr if not): lets the caller prefetch what it will touch.
    const Event* ahead(size_t k) const {
        return head0_ + k < buckets_[0].size() ? &buckets_[0][head0_ + k] : nullptr;
    }

private:
    size_t bucket(std::uint64_t t) const { return t == last_ ? 0 : 64 - __builtin_clzll(t ^ last_); }
    std::array<BigVector<Event>, 65> buckets_;
    std::uint64_t last_ = 0;
    std::uint64_t size_ = 0;
    size_t head0_ = 0;  // next event of bucket 0
};

}  // namespace jobsentry::sim
