// Precise mode's hooks, linked into the program by jobsentry-mpicc (a static
// archive, libjobsentry-rmacheck-hooks.a). The program is compiled with clang's
// AddressSanitizer pass and no ASan runtime: each load and store checks its
// byte of the module's shadow map inline (shadow.h) and calls one of the
// __asan_report_* functions below only where window memory or a pending origin
// buffer lies; they pass the access to the module's exact check. The rest is
// what the pass calls besides: the out-of-line checks of very large functions,
// memcpy/memset/memmove (so the program's own are recorded too), and start-up.
// No C++ runtime is used: the archive links into C programs.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "tools/rmacheck/preload/shadow.h"

extern "C" void jobsentry_rma_access(const void* addr, unsigned long size, int write, const void* ret);  // tsan_runtime.cpp

namespace {
using rmacheck::shadow::kGranules;
using rmacheck::shadow::kGranuleShift;

// Whether [a, a + n) touches a marked granule (the check the pass emits inline, for any size; eight
// granules at a time where they are aligned).
__attribute__((always_inline)) inline bool marked(uint64_t a, uint64_t n) {
    if (n == 0) return false;
    const uint8_t* map = reinterpret_cast<const uint8_t*>(__asan_shadow_memory_dynamic_address);
    uint64_t g = a >> kGranuleShift, last = (a + n - 1) >> kGranuleShift;
    if (last >= kGranules) return true;  // not user memory below 2^47: the exact check decides
    for (; g <= last && (g & 7) != 0; ++g)
        if (map[g]) return true;
    for (; g + 8 <= last + 1; g += 8) {
        uint64_t word;
        std::memcpy(&word, map + g, 8);
        if (word) return true;
    }
    for (; g <= last; ++g)
        if (map[g]) return true;
    return false;
}

// An access of another size, or aligned to less than 8 bytes and less than its size, is checked
// by the pass at its first byte a and at its last byte a + n - 1, and each check that finds its
// granule marked reports (that byte, n): the same report for "starts here" and "ends here".
// Both fire in a row, first then last, when both granules are marked: the second is dropped.
// A lone report (c, n) starts the access at c when c - n + 1 lies on a marked granule (a
// check there would have reported first) or on c's own; otherwise it may be either, and the
// bytes either could cover on marked granules are recorded: [start of c's granule, c + n). Only an
// access that crosses from unmarked memory into a window or buffer is ambiguous so; its record may
// then be up to 7 bytes wider before c, or up to n - 1 bytes after c.
struct LastN {
    uintptr_t c, n;
};
__thread LastN t_last_n;

void report_n(uintptr_t c, uintptr_t n, int write, const void* ret) {
    const LastN last = t_last_n;
    t_last_n = {c, n};
    if (n == 0) return;
    if (last.n == n && c == last.c + n - 1) {
        t_last_n = {};  // the pair is complete
        return;
    }
    uintptr_t a = c;
    const uintptr_t before = c - (n - 1), granule = c & ~((uintptr_t{1} << kGranuleShift) - 1);
    if (before < granule && !marked(before, 1)) a = granule;
    jobsentry_rma_access(reinterpret_cast<void*>(a), c + n - a, write, ret);
}

__attribute__((always_inline)) inline void check(const void* a, uint64_t n, int write, const void* ret) {
    if (__builtin_expect(marked(reinterpret_cast<uint64_t>(a), n), 0)) jobsentry_rma_access(a, n, write, ret);
}
}  // namespace

#define JS_REPORT(kind, n, write)                                                           \
    void __asan_report_##kind##n##_noabort(uintptr_t a) noexcept {                          \
        t_last_n = {};                                                                      \
        jobsentry_rma_access(reinterpret_cast<void*>(a), n, write, __builtin_return_address(0)); \
    }                                                                                       \
    void __asan_##kind##n##_noabort(uintptr_t a) noexcept {                                 \
        check(reinterpret_cast<void*>(a), n, write, __builtin_return_address(0));           \
    }
#define JS_REPORTS(n) JS_REPORT(load, n, 0) JS_REPORT(store, n, 1)

extern "C" {
JS_REPORTS(1)
JS_REPORTS(2)
JS_REPORTS(4)
JS_REPORTS(8)
JS_REPORTS(16)
void __asan_report_load_n_noabort(uintptr_t c, uintptr_t n) noexcept { report_n(c, n, 0, __builtin_return_address(0)); }
void __asan_report_store_n_noabort(uintptr_t c, uintptr_t n) noexcept { report_n(c, n, 1, __builtin_return_address(0)); }
void __asan_loadN_noabort(uintptr_t a, uintptr_t n) noexcept {
    check(reinterpret_cast<void*>(a), n, 0, __builtin_return_address(0));
}
void __asan_storeN_noabort(uintptr_t a, uintptr_t n) noexcept {
    check(reinterpret_cast<void*>(a), n, 1, __builtin_return_address(0));
}
void* __asan_memset(void* d, int c, size_t n) noexcept {
    check(d, n, 1, __builtin_return_address(0));
    return std::memset(d, c, n);
}
void* __asan_memcpy(void* d, const void* s, size_t n) noexcept {
    check(s, n, 0, __builtin_return_address(0));
    check(d, n, 1, __builtin_return_address(0));
    return std::memcpy(d, s, n);
}
void* __asan_memmove(void* d, const void* s, size_t n) noexcept {
    check(s, n, 0, __builtin_return_address(0));
    check(d, n, 1, __builtin_return_address(0));
    return std::memmove(d, s, n);
}
// A loop's whole walk, checked once before the loop (the pass plugin, rmacheck/loops/).
void __jobsentry_rma_range(uintptr_t lo, uintptr_t n, int write) noexcept {
    // A short walk (an inner loop over a matrix row) mostly touches nothing of interest: the map
    // says so without a call into the module. Longer ones go straight to the exact check (a few
    // range compares), cheaper than reading their map.
    constexpr uintptr_t kScanned = 64 * 1024;
    if (n <= kScanned && !marked(lo, n)) return;
    const void* ret = __builtin_return_address(0);
    constexpr uintptr_t kChunk = uintptr_t{1} << 31;  // records hold 32-bit sizes
    for (; n > kChunk; lo += kChunk, n -= kChunk) jobsentry_rma_access(reinterpret_cast<void*>(lo), kChunk, write, ret);
    jobsentry_rma_access(reinterpret_cast<void*>(lo), n, write, ret);
}
// Each instrumented object's constructor calls these first: the map must exist before its code runs.
void __asan_init() noexcept { jobsentry_rma_shadow_init(); }
void __asan_version_mismatch_check_v8() noexcept {}  // the ABI of clang 14 to 19 (Debian 12 and 13)
void __asan_handle_no_return() noexcept {}
}
