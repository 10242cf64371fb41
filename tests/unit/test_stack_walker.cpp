// The sampler's caches across samples of one process (hang/sampler/stack_walker.h,
// unwind_spaces.h), on a real child stopped by real ptrace.
#include "catch_compat.hpp"

#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "base/proc_files.h"
#include "hang/sampler/module_unwind_tables.h"
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

// Says it is ready from inside, so that any sample after the byte has this function on its stack.
__attribute__((noinline)) void waiting_in_another_mount_namespace(int ready) {
    const char c = 1;
    (void)!write(ready, &c, 1);
    for (;;) pause();
}

constexpr const char* kNamespaceHelper = "helper: waits in a function of its own for the mount-namespace test";
constexpr const char* kReadyFdVariable = "JOBSENTRY_TEST_READY_FD";

}  // namespace

// Run only by the test below, as the program it execs (hidden: "[.]").
TEST_CASE(kNamespaceHelper, "[.][mount-namespace]") {
    const char* fd = getenv(kReadyFdVariable);
    REQUIRE(fd);
    waiting_in_another_mount_namespace(atoi(fd));
}

// Needs a supervisor outside any chroot: in one (the Debian 13 stage's root), the path that the
// rank's maps show for a file of another mount namespace is its path from that namespace's root,
// which neither we nor libunwind-ptrace can open; scripts/debian13-stage.sh leaves it out there
// ("[mount-namespace]"), and tests/mpi/container_ranks.sh runs Debian 13's ranks from the host.
TEST_CASE("a rank in another mount namespace (a container) is named from the files it maps, not ours",
          "[mount-namespace]") {
    namespace fs = std::filesystem;
    const std::string self = real_path("/proc/self/exe");
    char dir_template[] = "/tmp/jobsentry-mntns-XXXXXX";
    REQUIRE(mkdtemp(dir_template));
    const std::string dir = dir_template, prog = dir + "/prog";
    // Ours: a stripped program of other functions. Its own, in its namespace: this test binary.
    fs::copy_file("/bin/sleep", prog);
    // The directory private, so that the bind mount made in the child's namespace stays there
    // (a shared "/" would carry it back to ours; "/" itself cannot be made private in a chroot).
    REQUIRE(mount(dir.c_str(), dir.c_str(), nullptr, MS_BIND, nullptr) == 0);
    REQUIRE(mount(nullptr, dir.c_str(), nullptr, MS_PRIVATE, nullptr) == 0);
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        close(ready[0]);
        if (unshare(CLONE_NEWNS) != 0 || mount(self.c_str(), prog.c_str(), nullptr, MS_BIND, nullptr) != 0) _exit(2);
        setenv(kReadyFdVariable, std::to_string(ready[1]).c_str(), 1);
        execl(prog.c_str(), "prog", kNamespaceHelper, static_cast<char*>(nullptr));
        _exit(127);
    }
    close(ready[1]);
    char c = 0;
    const bool started = read(ready[0], &c, 1) == 1;
    close(ready[0]);
    if (started) {
        StackWalkerOptions options;
        options.max_frames = 200;
        StackWalker walker(options);
        const StackSample s = walker.sample(child);
        REQUIRE(s.status == SampleStatus::ok);
        // Named from the file the rank maps (through /proc/PID/root): with ours, a copy of sleep,
        // this function would have no name.
        CHECK(std::any_of(s.frames.begin(), s.frames.end(), [](const Frame& f) {
            return f.function.find("waiting_in_another_mount_namespace") != std::string::npos;
        }));
        CHECK(any_frame_in(s, prog));  // the module as the rank's maps name it
        CHECK(s.complete);
        kill(child, SIGKILL);
    }
    int status = 0;
    waitpid(child, &status, 0);
    umount2(dir.c_str(), MNT_DETACH);
    fs::remove_all(dir);
    REQUIRE(started);  // else the child could not make its namespace (exit status below)
    CHECK(WIFSIGNALED(status));
}

TEST_CASE("only code gets a segment's table handle: a wrong return address in the heap or the stack does not") {
    ModuleUnwindTables tables(getpid());
    REQUIRE(tables.shared());
    std::vector<char> heap(1 << 20);
    volatile int on_stack = 0;
    CHECK(tables.for_ip(reinterpret_cast<uint64_t>(heap.data())) == tables.shared());
    CHECK(tables.for_ip(reinterpret_cast<uint64_t>(&on_stack)) == tables.shared());
    CHECK(tables.segments() == 0);
    void* code = tables.for_ip(reinterpret_cast<uint64_t>(&waiting_in_another_mount_namespace));
    CHECK(code != tables.shared());
    CHECK(tables.segments() == 1);
    CHECK(tables.for_ip(reinterpret_cast<uint64_t>(&wait_below_a_big_frame)) == code);  // the same segment
}

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
        execl("/bin/sh", "sh", "-c", "sleep 1.5; exec sleep 30", static_cast<char*>(nullptr));
        _exit(127);
    }
    StackWalker walker;
    // Samples until one has a frame in `module` (a program just exec'd is still in the loader).
    auto sample_in = [&](const std::string& module, bool* saw_shell) {
        StackSample s;
        for (int i = 0; i < 100; ++i) {
            s = walker.sample(child);
            if (saw_shell) *saw_shell = *saw_shell || any_frame_in(s, shell);
            if (s.status == SampleStatus::ok && any_frame_in(s, module)) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return s;
    };
    REQUIRE(wait_for_comm(child, "sh"));
    const StackSample before = sample_in(shell, nullptr);
    CHECK(any_frame_in(before, shell));  // waiting for its first sleep

    REQUIRE(wait_for_comm(child, "sleep"));
    bool saw_shell = false;
    const StackSample after = sample_in(sleep, &saw_shell);
    // At least once: a sample may also land while the kernel is still loading the new image (its comm is
    // set before its code's bounds), which drops the caches a second time. Never again on a settled image.
    const uint64_t resets = walker.exec_resets();
    CHECK(resets >= 1);
    CHECK(resets <= 2);
    for (int i = 0; i < 5; ++i) walker.sample(child);
    CHECK(walker.exec_resets() == resets);
    CHECK(any_frame_in(after, sleep));
    CHECK_FALSE(saw_shell);  // the old image's names, with its caches kept
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
