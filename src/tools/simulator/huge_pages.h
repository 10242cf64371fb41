// Allocator for the simulator's big arrays (ops, successor lists, rank
// states, event buckets): blocks of 8 MiB and more are 2 MiB-aligned and
// marked MADV_HUGEPAGE, because a 1 M-process run touches a 1.3 GB op array
// at random and 4 KiB pages then cost a TLB miss on most accesses. Smaller
// blocks come from operator new as usual.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace jobsentry::sim {

template <class T>
struct HugePageAllocator {
    using value_type = T;
    static constexpr std::size_t kHuge = std::size_t{2} << 20;
    static constexpr std::size_t kThreshold = std::size_t{8} << 20;

    HugePageAllocator() = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) {}

    T* allocate(std::size_t n) {
        std::size_t bytes = n * sizeof(T);
        if (bytes < kThreshold) return static_cast<T*>(::operator new(bytes));
        std::size_t rounded = (bytes + kHuge - 1) & ~(kHuge - 1);
        void* p = std::aligned_alloc(kHuge, rounded);
        if (!p) throw std::bad_alloc();
        madvise(p, rounded, MADV_HUGEPAGE);  // a hint: without THP it changes nothing
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) {
        if (n * sizeof(T) < kThreshold) ::operator delete(p);
        else std::free(p);
    }
};

template <class T, class U>
bool operator==(const HugePageAllocator<T>&, const HugePageAllocator<U>&) { return true; }
template <class T, class U>
bool operator!=(const HugePageAllocator<T>&, const HugePageAllocator<U>&) { return false; }

template <class T>
using BigVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace jobsentry::sim
