// The page map of precise mode (see shadow.h).
#include "shadow.h"

#include <sys/mman.h>

__attribute__((visibility("default"))) JobsentryRmaFilter jobsentry_rma_filter = {0, nullptr};

namespace rmacheck::shadow {

namespace {
uint8_t* g_pages = nullptr;
constexpr uint8_t kSticky = 255;  // a page that many ranges touched stays marked (never wrong: the exact check follows)

template <class F> void each_page(uint64_t lo, uint64_t hi, F f) {
    if (!g_pages || hi <= lo) return;
    uint64_t first = lo >> kPageShift, last = (hi - 1) >> kPageShift;
    if (last >= kFilterPages) last = kFilterPages - 1;  // above 47 bits the hooks always check exactly
    for (uint64_t p = first; p <= last; ++p) f(&g_pages[p]);
}
}  // namespace

void enable() {
    if (jobsentry_rma_filter.mode != 0) return;
    void* m = mmap(nullptr, kFilterPages, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {  // e.g. vm.overcommit_memory=2: slower, never wrong
        jobsentry_rma_filter.mode = 2;
        return;
    }
    madvise(m, kFilterPages, MADV_DONTDUMP);
    g_pages = static_cast<uint8_t*>(m);
    jobsentry_rma_filter.pages = g_pages;
    __atomic_store_n(&jobsentry_rma_filter.mode, 1, __ATOMIC_RELEASE);
}

void mark(uint64_t lo, uint64_t hi) {
    each_page(lo, hi, [](uint8_t* c) {
        uint8_t v = __atomic_load_n(c, __ATOMIC_RELAXED);
        while (v != kSticky && !__atomic_compare_exchange_n(c, &v, v + 1, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        }
    });
}

void unmark(uint64_t lo, uint64_t hi) {
    each_page(lo, hi, [](uint8_t* c) {
        uint8_t v = __atomic_load_n(c, __ATOMIC_RELAXED);
        while (v != kSticky && v != 0 && !__atomic_compare_exchange_n(c, &v, v - 1, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        }
    });
}

}  // namespace rmacheck::shadow
