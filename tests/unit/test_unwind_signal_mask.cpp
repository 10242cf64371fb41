// libunwind's signal masking skipped while a sample is unwound (hang/sampler/unwind_signal_mask.h):
// inside the scope sigprocmask and pthread_sigmask change nothing, in this thread only; outside it,
// and in any other thread, they are libc's.
#include "catch_compat.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <thread>

#include "hang/sampler/unwind_signal_mask.h"

using namespace jobsentry;

namespace {

// The kernel's view of this thread's mask, asked without going through either function.
bool kernel_blocks(int signal) {
    sigset_t now;
    sigemptyset(&now);
    syscall(SYS_rt_sigprocmask, SIG_BLOCK, nullptr, &now, _NSIG / 8);
    return sigismember(&now, signal) == 1;
}

sigset_t only(int signal) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    return set;
}

}  // namespace

TEST_CASE("inside an UnwindSignalMaskScope, masking returns 0 and changes nothing") {
    const sigset_t usr2 = only(SIGUSR2);
    REQUIRE_FALSE(kernel_blocks(SIGUSR2));
    {
        UnwindSignalMaskScope scope;
        CHECK(sigprocmask(SIG_BLOCK, &usr2, nullptr) == 0);
        CHECK(pthread_sigmask(SIG_BLOCK, &usr2, nullptr) == 0);
        CHECK_FALSE(kernel_blocks(SIGUSR2));
    }
    CHECK_FALSE(kernel_blocks(SIGUSR2));
}

TEST_CASE("outside the scope both functions are libc's, errors included") {
    const sigset_t usr2 = only(SIGUSR2);
    sigset_t old;
    REQUIRE(sigprocmask(SIG_BLOCK, &usr2, &old) == 0);
    CHECK(kernel_blocks(SIGUSR2));
    CHECK_FALSE(sigismember(&old, SIGUSR2));
    REQUIRE(pthread_sigmask(SIG_UNBLOCK, &usr2, nullptr) == 0);
    CHECK_FALSE(kernel_blocks(SIGUSR2));
    CHECK(pthread_sigmask(12345, &usr2, nullptr) == EINVAL);
    errno = 0;
    CHECK(sigprocmask(12345, &usr2, nullptr) == -1);
    CHECK(errno == EINVAL);
}

TEST_CASE("a scope skips only its own thread's masking, and scopes nest") {
    const sigset_t usr2 = only(SIGUSR2);
    UnwindSignalMaskScope outer;
    {
        UnwindSignalMaskScope inner;
    }
    CHECK(sigprocmask(SIG_BLOCK, &usr2, nullptr) == 0);  // still inside the outer scope
    CHECK_FALSE(kernel_blocks(SIGUSR2));
    bool other_blocked = false;
    std::thread other([&] {
        pthread_sigmask(SIG_BLOCK, &usr2, nullptr);
        other_blocked = kernel_blocks(SIGUSR2);
    });
    other.join();
    CHECK(other_blocked);
}
