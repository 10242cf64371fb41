// The calling thread's kernel id, cached per thread: every trace record says
// which thread made it (trace_format.h, Rec::thread), so the analysis can tell
// when a rank's events came from several threads it cannot order. Initial-exec
// TLS and a raw gettid, so the signal handlers of mode 1 may call it too.
#pragma once

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

namespace rmacheck {

inline uint32_t this_thread() noexcept {
    static thread_local uint32_t tid __attribute__((tls_model("initial-exec"))) = 0;
    if (tid == 0) tid = static_cast<uint32_t>(syscall(SYS_gettid));
    return tid;
}

}  // namespace rmacheck
