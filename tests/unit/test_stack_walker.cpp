// The sampler's caches across samples of one process (hang/sampler/stack_walker.h,
// unwind_spaces.h), on a real child stopped by real ptrace.
#include "catch_compat.hpp"

#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "base/proc_files.h"
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

// A frame of 2 MiB (a Fortran code's automatic arrays): the callers' frames lie beyond the
// stack copy of kSnapshotStackBytes.
__attribute__((noinline)) void wait_below_a_big_frame(int ready) {
    volatile char big[2 << 20];
    big[0] = 1;
    volatile int sink = 0;
    descend<2>(&sink, ready);
    big[sizeof big - 1] = static_cast<char>(sink);
}

std::string real_path(const char* path) {
    char out[PATH_MAX];
    return realpath(path, out) ? out : path;
}

bool any_frame_in(const StackSample& s, const std::string& module) {
    return std::any_of(s.frames.begin(), s.frames.end(), [&](const Frame& f) { return f.module == module; });
}

// Waits (up to 5 s) until the process's comm is `comm`.
bool wait_for_comm(pid_t pid, const std::string& comm) {
    for (int i = 0; i < 500; ++i) {
        if (auto st = read_proc_stat(pid); st && st->comm == comm) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

}  // namespace

TEST_CASE("a stack deeper than the copy is unwound whole, during the stop, and the thread let go") {
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        wait_below_a_big_frame(ready[1]);
        _exit(0);
    }
    char c = 0;
    REQUIRE(read(ready[0], &c, 1) == 1);

    StackWalkerOptions options;
    options.max_frames = 200;
    StackWalker walker(options);
    for (int i = 0; i < 3; ++i) {
        const StackSample s = walker.sample(child);
        REQUIRE(s.status == SampleStatus::ok);
        // Every sample, the first included: the frames beyond the 2 MiB frame were read while the
        // thread was stopped (a copy of 256 KiB alone ended the unwind at the big frame).
        CHECK(s.complete);
        CHECK(std::any_of(s.frames.begin(), s.frames.end(), [](const Frame& f) {
            return f.function.find("wait_below_a_big_frame") != std::string::npos;
        }));
        CHECK(std::any_of(s.frames.begin(), s.frames.end(), [](const Frame& f) { return f.function == "main"; }));
        const auto st = read_proc_stat(child);
        REQUIRE(st);
        CHECK(st->state != 't');  // not left in our stop
    }
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    close(ready[0]);
    close(ready[1]);
}

TEST_CASE("a process that runs execve is unwound and named as its new program") {
    const std::string shell = real_path("/bin/sh"), sleep = real_path("/bin/sleep");
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // Without ASLR both programs sit at the same addresses: only the exec tells them apart.
        personality(ADDR_NO_RANDOMIZE);
        execl("/bin/sh", "sh", "-c", "sleep 0.8; exec sleep 30", static_cast<char*>(nullptr));
        _exit(127);
    }
    StackWalker walker;
    REQUIRE(wait_for_comm(child, "sh"));
    const StackSample before = walker.sample(child);
    REQUIRE(before.status == SampleStatus::ok);
    CHECK(any_frame_in(before, shell));  // waiting for its first sleep

    REQUIRE(wait_for_comm(child, "sleep"));
    const StackSample after = walker.sample(child);
    REQUIRE(after.status == SampleStatus::ok);
    CHECK(walker.exec_resets() == 1);
    CHECK(any_frame_in(after, sleep));
    CHECK_FALSE(any_frame_in(after, shell));  // the old image's names, with its caches kept
    CHECK(after.complete);

    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
}

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
