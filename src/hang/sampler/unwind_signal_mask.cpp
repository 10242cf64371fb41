#include "hang/sampler/unwind_signal_mask.h"

#include <dlfcn.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace {

thread_local bool t_skip_masking = false;

using MaskFunction = int (*)(int, const sigset_t*, sigset_t*);

MaskFunction libc_function(const char* name) {
    return reinterpret_cast<MaskFunction>(dlsym(RTLD_NEXT, name));
}

// Without libc's function (never seen): the system call itself, as sigprocmask would make it.
int mask_by_system_call(int how, const sigset_t* set, sigset_t* old) {
    return static_cast<int>(syscall(SYS_rt_sigprocmask, how, set, old, _NSIG / 8));
}

}  // namespace

extern "C" int sigprocmask(int how, const sigset_t* set, sigset_t* old) noexcept {
    if (t_skip_masking) return 0;
    static const MaskFunction libc = libc_function("sigprocmask");
    return libc ? libc(how, set, old) : mask_by_system_call(how, set, old);
}

extern "C" int pthread_sigmask(int how, const sigset_t* set, sigset_t* old) noexcept {
    if (t_skip_masking) return 0;
    static const MaskFunction libc = libc_function("pthread_sigmask");
    if (libc) return libc(how, set, old);
    return mask_by_system_call(how, set, old) == 0 ? 0 : errno;
}

namespace jobsentry {

UnwindSignalMaskScope::UnwindSignalMaskScope() : previous_(t_skip_masking) { t_skip_masking = true; }

UnwindSignalMaskScope::~UnwindSignalMaskScope() { t_skip_masking = previous_; }

}  // namespace jobsentry
