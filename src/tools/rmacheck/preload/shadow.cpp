// The shadow map of precise mode (see shadow.h).
#include "tools/rmacheck/preload/shadow.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

__attribute__((visibility("default"))) uintptr_t __asan_shadow_memory_dynamic_address = 0;

namespace rmacheck::shadow {

namespace {
uint8_t* g_map = nullptr;
bool g_lazy = false;  // reserved read-only (vm.overcommit_memory=2): made writable where marked
bool g_on = false;
constexpr uint8_t kOne = 0x80, kSticky = 0xff;

template <class F> void each_granule(uint64_t lo, uint64_t hi, F f) {
    if (!g_on || hi <= lo) return;
    uint64_t first = lo >> kGranuleShift, last = (hi - 1) >> kGranuleShift;
    if (first >= kGranules) return;
    if (last >= kGranules) last = kGranules - 1;
    if (g_lazy) {  // only the pages of the map this range needs are committed
        const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
        const uint64_t a = reinterpret_cast<uint64_t>(g_map + first) & ~(page - 1);
        const uint64_t b = reinterpret_cast<uint64_t>(g_map + last) + 1;
        if (mprotect(reinterpret_cast<void*>(a), b - a, PROT_READ | PROT_WRITE) != 0) return;
    }
    for (uint64_t g = first; g <= last; ++g) f(&g_map[g]);
}
}  // namespace

void enable() { g_on = g_map != nullptr; }

void mark(uint64_t lo, uint64_t hi) {
    each_granule(lo, hi, [](uint8_t* c) {
        uint8_t v = __atomic_load_n(c, __ATOMIC_RELAXED);
        while (v != kSticky && !__atomic_compare_exchange_n(c, &v, v == 0 ? kOne : uint8_t(v + 1), true,
                                                            __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        }
    });
}

void unmark(uint64_t lo, uint64_t hi) {
    each_granule(lo, hi, [](uint8_t* c) {
        uint8_t v = __atomic_load_n(c, __ATOMIC_RELAXED);
        while (v != kSticky && v != 0 &&
               !__atomic_compare_exchange_n(c, &v, v == kOne ? uint8_t(0) : uint8_t(v - 1), true, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED)) {
        }
    });
}

}  // namespace rmacheck::shadow

extern "C" __attribute__((visibility("default"))) void jobsentry_rma_shadow_init() {
    using namespace rmacheck::shadow;
    if (g_map) return;
    const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    void* m = mmap(nullptr, kGranules, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (m == MAP_FAILED) {  // strict overcommit: a read-only reservation is not charged
        m = mmap(nullptr, kGranules, PROT_READ, flags, -1, 0);
        g_lazy = true;
    }
    if (m == MAP_FAILED) {
        // The instrumentation reads this map on every load and store: without it the program cannot run.
        char msg[256];
        int n = snprintf(msg, sizeof msg,
                         "jobsentry-mpicc program: cannot reserve %llu GiB of address space for rma-check's "
                         "shadow map (%s); is the address space limited (ulimit -v)?\n",
                         static_cast<unsigned long long>(kGranules >> 30), strerror(errno));
        if (n > 0) (void)!write(2, msg, static_cast<size_t>(n) < sizeof msg ? n : sizeof msg - 1);
        _exit(127);
    }
    madvise(m, kGranules, MADV_DONTDUMP);
    g_map = static_cast<uint8_t*>(m);
    __asan_shadow_memory_dynamic_address = reinterpret_cast<uintptr_t>(m);
}
