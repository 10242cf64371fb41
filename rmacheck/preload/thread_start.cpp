// pthread_create interposed to count the program's threads (see thread_start.h).
#include "thread_start.h"

#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cerrno>

#include "guard.h"

namespace rmacheck {

namespace {
std::atomic<int> g_started{0};
using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
}  // namespace

int program_threads() noexcept { return g_started.load(std::memory_order_relaxed); }

}  // namespace rmacheck

extern "C" __attribute__((visibility("default"))) int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                                                                    void* (*start)(void*), void* arg) {
    static const auto next = reinterpret_cast<rmacheck::CreateFn>(dlsym(RTLD_NEXT, "pthread_create"));
    if (!next) return EAGAIN;
    if (rmacheck::t_depth == 0) rmacheck::g_started.fetch_add(1, std::memory_order_relaxed);
    return next(thread, attr, start, arg);
}
