// Precise mode's hooks, linked into the program by jobsentry-mpicc (a static
// archive, libjobsentry-rmacheck-hooks.a): the calls that -fsanitize=thread
// instrumentation makes for every load and store land here directly, not
// through the PLT into the preload module. Most accesses touch neither window
// memory nor a pending origin buffer: the page map of the module
// (shadow.h) says so with one load, and only an access to a marked page calls
// the module's exact check (tsan_runtime.cpp). No C++ runtime is used: the
// archive links into C programs.
#include <cstddef>
#include <cstdint>
#include <cstring>

extern "C" {
struct JobsentryRmaFilter {  // as in shadow.h
    uint64_t mode;
    const uint8_t* pages;
};
extern JobsentryRmaFilter jobsentry_rma_filter;
void jobsentry_rma_access(const void* addr, unsigned long size, int write, const void* ret);
}

namespace {
constexpr unsigned kPageShift = 12;
constexpr uint64_t kFilterPages = uint64_t{1} << (47 - kPageShift);

// Whether [a, a + n) may be of interest: a marked page anywhere in it (an access of up to 16 bytes
// spans at most two pages: two loads, no loop).
__attribute__((always_inline)) inline bool maybe(uint64_t a, uint64_t n, bool small) {
    const uint64_t mode = jobsentry_rma_filter.mode;
    if (__builtin_expect(mode != 1, 0)) return mode == 2;
    const uint8_t* pages = jobsentry_rma_filter.pages;
    const uint64_t first = a >> kPageShift, last = (a + (n ? n - 1 : 0)) >> kPageShift;
    if (__builtin_expect(last >= kFilterPages, 0)) return true;
    if (small) return (pages[first] | pages[last]) != 0;
    for (uint64_t p = first; p <= last; ++p)
        if (pages[p]) return true;
    return false;
}

__attribute__((always_inline)) inline void access(void* addr, uint64_t n, int write, const void* ret,
                                                  bool small = true) {
    if (__builtin_expect(maybe(reinterpret_cast<uint64_t>(addr), n, small), 0))
        jobsentry_rma_access(addr, n, write, ret);
}
}  // namespace

#define JS_HOOK(name, n, write) \
    void name(void* a) noexcept { access(a, n, write, __builtin_return_address(0)); }
#define JS_HOOKS(n)                           \
    JS_HOOK(__tsan_read##n, n, 0)             \
    JS_HOOK(__tsan_write##n, n, 1)            \
    JS_HOOK(__tsan_unaligned_read##n, n, 0)   \
    JS_HOOK(__tsan_unaligned_write##n, n, 1)

extern "C" {
JS_HOOKS(1)
JS_HOOKS(2)
JS_HOOKS(4)
JS_HOOKS(8)
JS_HOOKS(16)
void __tsan_read_range(void* a, unsigned long n) noexcept { access(a, n, 0, __builtin_return_address(0), false); }
void __tsan_write_range(void* a, unsigned long n) noexcept { access(a, n, 1, __builtin_return_address(0), false); }
}
