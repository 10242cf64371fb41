// pthread_create interposed to count the program's threads (see thread_start.h).
#include "tools/rmacheck/preload/thread_start.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>

#include <atomic>
#include <cerrno>
#include <new>

#include "tools/rmacheck/preload/guard.h"

namespace rmacheck {

namespace {
std::atomic<int> g_started{0};
using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
constexpr size_t kAltStack = 64 * 1024;  // as the main thread's (protect.cpp)

struct Start {
    void* (*start)(void*);
    void* arg;
};

// Mode 1's SIGSEGV handler runs on an alternate stack (SA_ONSTACK), but sigaltstack is per thread:
// a thread without one that faults on its own page-protected stack (a Put from a stack buffer)
// would fault again in the handler and die. Every program thread gets its own.
void* with_alt_stack(void* p) {
    Start s = *static_cast<Start*>(p);
    delete static_cast<Start*>(p);
    stack_t ss{};
    ss.ss_size = kAltStack;
    ss.ss_sp = mmap(nullptr, kAltStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    bool alt = ss.ss_sp != MAP_FAILED && sigaltstack(&ss, nullptr) == 0;
    if (!alt && ss.ss_sp != MAP_FAILED) munmap(ss.ss_sp, kAltStack);
    // A thread ended by pthread_exit or cancelled keeps its mapping (64 KiB): rare, and harmless.
    void* result = s.start(s.arg);
    if (alt) {
        stack_t off{};
        off.ss_flags = SS_DISABLE;
        sigaltstack(&off, nullptr);
        munmap(ss.ss_sp, kAltStack);
    }
    return result;
}

// A thread MPI starts inside one of its calls (a progress thread) is MPI's for its whole life: it
// runs as if inside a wrapper, so mode 1 never takes its accesses for the program's.
void* as_mpi_thread(void* p) {
    Start s = *static_cast<Start*>(p);
    delete static_cast<Start*>(p);
    t_depth = 1;
    t_mpi_thread = true;
    return s.start(s.arg);
}
}  // namespace

thread_local bool t_mpi_thread __attribute__((tls_model("initial-exec"))) = false;

int program_threads() noexcept { return g_started.load(std::memory_order_relaxed); }

}  // namespace rmacheck

extern "C" __attribute__((visibility("default"))) int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                                                                    void* (*start)(void*), void* arg) {
    static const auto next = reinterpret_cast<rmacheck::CreateFn>(dlsym(RTLD_NEXT, "pthread_create"));
    if (!next) return EAGAIN;
    if (!rmacheck::g_enabled) return next(thread, attr, start, arg);
    if (rmacheck::t_depth != 0) {  // MPI's own thread (rmacheck::as_mpi_thread)
        auto* s = new (std::nothrow) rmacheck::Start{start, arg};
        if (!s) return next(thread, attr, start, arg);
        int rc = next(thread, attr, rmacheck::as_mpi_thread, s);
        if (rc != 0) delete s;
        return rc;
    }
    rmacheck::g_started.fetch_add(1, std::memory_order_relaxed);
    auto* s = new (std::nothrow) rmacheck::Start{start, arg};
    if (!s) return next(thread, attr, start, arg);
    int rc = next(thread, attr, rmacheck::with_alt_stack, s);
    if (rc != 0) delete s;
    return rc;
}
