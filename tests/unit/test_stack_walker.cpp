// The sampler's caches across samples of one process (hang/sampler/stack_walker.h,
// unwind_spaces.h), on a real child stopped by real ptrace.
#include "catch_compat.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hang/sampler/stack_walker.h"

using namespace jobsentry;

namespace {

constexpr int kDepth = 300;  // distinct return addresses: more than libunwind's default cache holds

// Each level a function of its own, with work after the call (no tail call): kDepth frames with
// kDepth distinct return addresses, as a real code's deep stacks have.
template <int N>
__attribute__((noinline)) void descend(volatile int* sink, int ready) {
    descend<N - 1>(sink, ready);
    *sink = N;
}

template <>
__attribute__((noinline)) void descend<0>(volatile int*, int ready) {
    const char c = 1;
    (void)!write(ready, &c, 1);
    for (;;) pause();
}

}  // namespace

TEST_CASE("a process's register rules are kept for more PCs than libunwind's default 128, and not for the next process") {
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        volatile int sink = 0;
        descend<kDepth>(&sink, ready[1]);
        _exit(0);
    }
    char c = 0;
    REQUIRE(read(ready[0], &c, 1) == 1);

    StackWalkerOptions options;
    options.max_frames = kDepth + 100;
    StackWalker walker(options);
    const StackSample first = walker.sample(child);
    REQUIRE(first.status == SampleStatus::ok);
    CHECK(first.frames.size() > static_cast<size_t>(kDepth));
    const uint64_t after_first = walker.table_lookups();
    CHECK(after_first > static_cast<uint64_t>(kDepth));  // each PC's rules read once
    for (int i = 0; i < 3; ++i) REQUIRE(walker.sample(child).status == SampleStatus::ok);
    // With the default 128 PCs, each of these samples read every PC's rules again (~300 lookups, ~900
    // in all). A few are new PCs: the innermost frames' system call, restarted after our stop, may sit
    // at another instruction (Debian 13's glibc: 2 lookups over the three samples).
    CHECK(walker.table_lookups() - after_first < 10);

    // A forgotten process's address spaces serve the next one with their rules flushed: the same
    // PCs in another process may be other code (ASLR).
    walker.forget(child);
    REQUIRE(walker.sample(child).status == SampleStatus::ok);
    CHECK(walker.table_lookups() - after_first > static_cast<uint64_t>(kDepth));

    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    close(ready[0]);
    close(ready[1]);
}
