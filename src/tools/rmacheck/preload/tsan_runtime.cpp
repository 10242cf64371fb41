// Precise mode (mode 2): the project's own small runtime behind the
// instrumentation of a program compiled with jobsentry-mpicc. The program's
// hooks (asan_hooks.cpp) call jobsentry_rma_access only for an access to a
// granule the shadow map marks (shadow.h); the __tsan_* entry points below
// serve programs built by older releases (with -fsanitize=thread, every access
// called). Only accesses to this rank's window
// memory or to pending RMA origin buffers are kept (a few range compares);
// they are written to the trace at the next MPI call, in program order. The
// recorded address is the return address minus one: inside the instrumented
// access's own source line.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "tools/rmacheck/preload/guard.h"
#include "tools/rmacheck/preload/hooks.h"
#include "tools/rmacheck/preload/protect.h"
#include "tools/rmacheck/preload/shadow.h"

namespace {
bool g_precise = false;  // set once tracing runs in precise mode

inline void access(const void* addr, size_t size, bool write, const void* ret) {
    if (!g_precise || rmacheck::t_depth != 0) return;
    uint64_t a = reinterpret_cast<uint64_t>(addr);
    if (!rmacheck::protect::interesting(a, size)) return;
    rmacheck::record_local(reinterpret_cast<uint64_t>(ret) - 1, a, static_cast<uint32_t>(size), write);
}
}  // namespace

namespace rmacheck {
void enable_precise() noexcept {
    shadow::enable();
    g_precise = true;
}
}  // namespace rmacheck

extern "C" __attribute__((visibility("default"))) void jobsentry_rma_access(const void* addr, unsigned long size,
                                                                            int write, const void* ret) noexcept {
    access(addr, size, write != 0, ret);
}

#define JS_TSAN_ACCESS(n)                                                                         \
    void __tsan_read##n(void* a) noexcept { access(a, n, false, __builtin_return_address(0)); }   \
    void __tsan_write##n(void* a) noexcept { access(a, n, true, __builtin_return_address(0)); }   \
    void __tsan_unaligned_read##n(void* a) noexcept { access(a, n, false, __builtin_return_address(0)); } \
    void __tsan_unaligned_write##n(void* a) noexcept { access(a, n, true, __builtin_return_address(0)); }

extern "C" {
__attribute__((visibility("default"))) void __tsan_init() noexcept {}
__attribute__((visibility("default"))) void __tsan_func_entry(void*) noexcept {}
__attribute__((visibility("default"))) void __tsan_func_exit() noexcept {}
JS_TSAN_ACCESS(1)
JS_TSAN_ACCESS(2)
JS_TSAN_ACCESS(4)
JS_TSAN_ACCESS(8)
JS_TSAN_ACCESS(16)
void __tsan_read_range(void* a, unsigned long n) noexcept { access(a, n, false, __builtin_return_address(0)); }
void __tsan_write_range(void* a, unsigned long n) noexcept { access(a, n, true, __builtin_return_address(0)); }
// clang 17 and later (Debian 13's clang 19) call these for memset/memcpy/
// memmove (builtins included) instead of libc's, which the real runtime
// intercepts: record the accesses, then do the work.
__attribute__((visibility("default"))) void* __tsan_memset(void* d, int c, size_t n) noexcept {
    access(d, n, true, __builtin_return_address(0));
    return std::memset(d, c, n);
}
__attribute__((visibility("default"))) void* __tsan_memcpy(void* d, const void* s, size_t n) noexcept {
    access(s, n, false, __builtin_return_address(0));
    access(d, n, true, __builtin_return_address(0));
    return std::memcpy(d, s, n);
}
__attribute__((visibility("default"))) void* __tsan_memmove(void* d, const void* s, size_t n) noexcept {
    access(s, n, false, __builtin_return_address(0));
    access(d, n, true, __builtin_return_address(0));
    return std::memmove(d, s, n);
}
void __tsan_vptr_update(void**, void*) noexcept {}
void __tsan_vptr_read(void**) noexcept {}
void __tsan_ignore_thread_begin() noexcept {}
void __tsan_ignore_thread_end() noexcept {}
}
