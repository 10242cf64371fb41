// /proc/PID/stat parsing: awkward comm names, CPU ticks, start time and malformed text.
#include "catch_compat.hpp"

#include <unistd.h>

#include <signal.h>
#include <sys/wait.h>

#include "base/proc_files.h"
#include "base/proc_stat_files.h"

using namespace jobsentry;

namespace {

// A /proc/PID/stat line with 52 fields, as Linux 5.x+ prints it: utime 13+1, stime 14+1, starttime 21+1,
// startcode 25+1, endcode 26+1, startstack 27+1.
std::string stat_line(const std::string& comm, const std::string& state = "S") {
    return "1234 (" + comm + ") " + state +
           " 1 1234 1234 0 -1 4194560 1523 0 12 0 250 37 0 0 20 0 1 0 98765 12345678 345 "
           "18446744073709551615 4194304 4198400 140737488346112 0 0 0 0 4096 1260 0 0 0 17 3 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
}

}  // namespace

TEST_CASE("parse_proc_stat on awkward comm names", "[proc_files]") {
    const std::vector<std::string> comms{"a", "a) b) c", "my prog", "(x)", ")(", "", "a) S 1 2 3"};
    for (const auto& comm : comms) {
        INFO("comm=" << comm);
        auto st = parse_proc_stat(stat_line(comm));
        REQUIRE(st);
        CHECK(st->comm == comm);
        CHECK(st->state == 'S');
        CHECK(st->ppid == 1);
        CHECK(st->cpu_ticks == 250 + 37);
        CHECK(st->user_ticks == 250);  // utime, field 14
        CHECK(st->start_time == 98765);
        CHECK(st->end_code == 4198400);
        CHECK(st->start_stack == 140737488346112);
    }
    CHECK(parse_proc_stat(stat_line("x", "T"))->state == 'T');
}

TEST_CASE("parse_proc_stat: a text that ends after starttime has no image fields", "[proc_files]") {
    const std::string full = stat_line("x");
    auto st = parse_proc_stat(full.substr(0, full.find(" 12345678")));
    REQUIRE(st);
    CHECK(st->start_time == 98765);
    CHECK(st->end_code == 0);
    CHECK(st->start_stack == 0);
}

TEST_CASE("parse_proc_stat rejects malformed text", "[proc_files]") {
    const std::string full = stat_line("a) b) c");
    const std::vector<std::pair<const char*, std::string>> rows{
        {"empty", ""},
        {"no parentheses", "1234 a S 1 2 3"},
        {"no closing parenthesis", "1234 (abc S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"},
        {"parentheses reversed", "1234 )abc( S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"},
        {"cut before starttime", full.substr(0, full.find(" 98765"))},
        {"only the comm", "1234 (abc)"},
    };
    for (const auto& [what, text] : rows) {
        INFO(what);
        CHECK_FALSE(parse_proc_stat(text));
    }
}

TEST_CASE("read_proc_stat reads this process", "[proc_files]") {
    auto st = read_proc_stat(getpid());
    REQUIRE(st);
    CHECK(st->ppid == getppid());
    CHECK(st->end_code > 0);  // our own image: shown to us
    CHECK(st->start_stack > st->end_code);
    CHECK(st->state == 'R');
    CHECK(st->start_time > 0);
    CHECK_FALSE(read_bounded("/nonexistent/file", 10));
    auto limited = read_bounded("/proc/self/stat", 5);
    REQUIRE(limited);
    CHECK(limited->size() == 5);
}

TEST_CASE("status_owned_by: all four uids must be the job's", "[proc_files]") {
    const std::string head = "Name:\tx\nState:\tS (sleeping)\n";
    CHECK(status_owned_by(head + "Uid:\t1000\t1000\t1000\t1000\nGid:\t1\t1\t1\t1\n", 1000) == std::optional<bool>(true));
    CHECK(status_owned_by(head + "Uid:\t1000\t0\t1000\t1000\n", 1000) == std::optional<bool>(false));
    CHECK(status_owned_by(head + "Uid:\t1000\t1000\t1000\n", 1000) == std::nullopt);  // three fields
    CHECK(status_owned_by(head + "Uid:\t1000\t1000\t1000\t1000\t1000", 1000) == std::nullopt);  // five, no newline
    CHECK(status_owned_by("Uid:\t1000\t1000\t1000\t1000\n", 1000) == std::nullopt);  // not after a newline
    CHECK(status_owned_by("", 0) == std::nullopt);
    CHECK(process_owned_by(getpid(), getuid()) == status_owned_by(*read_bounded("/proc/self/status", 16384), getuid()));
}

TEST_CASE("status_traced reads TracerPid", "[proc_files]") {
    CHECK_FALSE(status_traced("Name:\tx\nTracerPid:\t0\nUid:\t0\n"));
    CHECK(status_traced("Name:\tx\nTracerPid:\t4321\nUid:\t0\n"));
    CHECK_FALSE(status_traced("Name:\tx\nTracerPid:"));  // cut at the end of the file
    CHECK_FALSE(status_traced("TracerPid:\t12\n"));        // not after a newline
}

TEST_CASE("mapping_containing finds the line of an address in /proc/PID/maps text", "[proc_files]") {
    const std::string maps =
        "55d0c0a00000-55d0c0a21000 r--p 00000000 08:01 131 /usr/bin/sleep\n"
        "55d0c0a21000-55d0c0a30000 r-xp 00021000 08:01 131 /usr/bin/sleep\n"
        "7f1c2a000000-7f1c2a026000 r--p 00000000 08:01 4242 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
        "7ffd10000000-7ffd10021000 rw-p 00000000 00:00 0                          [stack]\n";
    auto stack = mapping_containing(maps, 0x7ffd10020ff8);
    REQUIRE(stack);
    CHECK(stack->lo == 0x7ffd10000000ull);
    CHECK(stack->hi == 0x7ffd10021000ull);
    CHECK_FALSE(stack->executable);
    auto first = mapping_containing(maps, 0x55d0c0a00000);
    REQUIRE(first);
    CHECK(first->hi == 0x55d0c0a21000ull);
    CHECK_FALSE(first->executable);
    auto code = mapping_containing(maps, 0x55d0c0a21000);
    REQUIRE(code);
    CHECK(code->executable);
    CHECK(code->hi == 0x55d0c0a30000ull);
    CHECK_FALSE(mapping_containing(maps, 0x7ffd10021000));  // the end is not inside
    CHECK_FALSE(mapping_containing(maps, 0x1000));
    CHECK_FALSE(mapping_containing("", 0x1000));
    CHECK_FALSE(mapping_containing("garbage\n" + maps, 0x7ffd10000010));  // malformed before it
    CHECK_FALSE(mapping_containing("2000-1000 r--p 0 0:0 0\n", 0x1800));    // an end before its start
}

TEST_CASE("read_mapping_containing finds this thread's stack", "[proc_files]") {
    int local = 0;
    const auto addr = reinterpret_cast<uint64_t>(&local);
    auto stack = read_mapping_containing(getpid(), addr);
    REQUIRE(stack);
    CHECK(stack->lo <= addr);
    CHECK(addr < stack->hi);
}

TEST_CASE("voluntary context switches from /proc/PID/status") {
    CHECK(status_voluntary_switches("Name:\tx\nvoluntary_ctxt_switches:\t1234\nnonvoluntary_ctxt_switches:\t7\n") == 1234u);
    CHECK_FALSE(status_voluntary_switches("Name:\tx\nnonvoluntary_ctxt_switches:\t7\n"));
    CHECK_FALSE(status_voluntary_switches("Name:\tx\nvoluntary_ctxt_switches:\tlots\n"));
    CHECK_FALSE(status_voluntary_switches("Name:\tx\nvoluntary_ctxt_switches:\t99999999999999999999999\n"));
    // This very thread has slept at least once (the test runner's start-up) and is readable.
    CHECK(read_voluntary_switches(getpid(), getpid()).has_value());
}

TEST_CASE("a thread's CPU time and run-queue wait from /proc/PID/task/TID/schedstat") {
    auto s = parse_schedstat("1517982897 7476978 22\n");
    REQUIRE(s);
    CHECK(s->run_ns == 1517982897u);
    CHECK(s->wait_ns == 7476978u);
    CHECK_FALSE(parse_schedstat(""));
    CHECK_FALSE(parse_schedstat("12"));
    CHECK_FALSE(parse_schedstat("12 x 3"));
    CHECK_FALSE(parse_schedstat("-1 2 3"));
    CHECK_FALSE(parse_schedstat("99999999999999999999999 2 3"));
    // This thread has run: its own file is readable and counts that time.
    auto own = read_thread_schedstat(getpid(), getpid());
    REQUIRE(own);
    CHECK(own->run_ns > 0);
}

TEST_CASE("status_signal_pending reads SigPnd and ShdPnd") {
    const std::string cont_shared = "Name:\tx\nSigQ:\t0/1\nSigPnd:\t0000000000000000\nShdPnd:\t0000000000020000\n";
    CHECK(status_signal_pending(cont_shared, 18) == true);   // SIGCONT: bit 17
    CHECK(status_signal_pending(cont_shared, 19) == false);  // SIGSTOP
    const std::string stop_thread = "Name:\tx\nSigPnd:\t0000000000040000\nShdPnd:\t0000000000000000\n";
    CHECK(status_signal_pending(stop_thread, 19) == true);
    CHECK(status_signal_pending(stop_thread, 18) == false);
    CHECK_FALSE(status_signal_pending("Name:\tx\n", 18).has_value());
    CHECK_FALSE(status_signal_pending(cont_shared, 0).has_value());
    CHECK_FALSE(status_signal_pending(cont_shared, 65).has_value());
}

TEST_CASE("the cpu.stat of a process's cgroup and its throttle count") {
    CHECK(cpu_stat_path("9:name=systemd:/\n2:cpuacct:/\n1:cpu:/jobsentry-slow-test-1\n0::/\n") ==
          std::optional<std::string>("/sys/fs/cgroup/cpu/jobsentry-slow-test-1/cpu.stat"));
    CHECK(cpu_stat_path("4:cpu,cpuacct:/slurm/uid_1/job_7/step_0\n") ==
          std::optional<std::string>("/sys/fs/cgroup/cpu,cpuacct/slurm/uid_1/job_7/step_0/cpu.stat"));
    CHECK(cpu_stat_path("1:cpu:/\n") == std::optional<std::string>("/sys/fs/cgroup/cpu/cpu.stat"));
    CHECK(cpu_stat_path("0::/system.slice/slurmstepd.scope/job_7\n") ==
          std::optional<std::string>("/sys/fs/cgroup/system.slice/slurmstepd.scope/job_7/cpu.stat"));
    CHECK(cpu_stat_path("3:cpuset:/\n2:cpuacct:/\n") == std::nullopt);  // no CPU controller
    CHECK(cpu_stat_path("1:cpu:/a/../../etc\n") == std::nullopt);      // not a plain path
    CHECK(cpu_stat_path("") == std::nullopt);
    CHECK(cpu_stat_nr_throttled("nr_periods 120\nnr_throttled 37\nthrottled_time 981\n") == std::optional<uint64_t>(37));
    CHECK(cpu_stat_nr_throttled("usage_usec 5\nnr_periods 0\nnr_throttled 0\nthrottled_usec 0\n") ==
          std::optional<uint64_t>(0));
    CHECK(cpu_stat_nr_throttled("nr_throttled 5") == std::optional<uint64_t>(5));
    CHECK(cpu_stat_nr_throttled("usage_usec 5\n") == std::nullopt);
    CHECK(proc_io_written_bytes("rchar: 6976\nwchar: 4096\nsyscr: 10\n") == std::optional<uint64_t>(4096));
    CHECK(proc_io_written_bytes("wchar: 0\n") == std::optional<uint64_t>(0));
    CHECK(proc_io_written_bytes("rchar: 6976\nsyscw: 3\n") == std::nullopt);
    CHECK(proc_io_written_bytes("wchar: x\n") == std::nullopt);
    CHECK(read_cpu_throttled_periods(getpid()).has_value() == cpu_stat_path(*read_bounded("/proc/self/cgroup", 4096))
                                                                    .has_value());
}

TEST_CASE("a process's /proc files kept open read anew each time, and fail once it has exited", "[proc_files]") {
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        for (;;) {}  // busy: its CPU time grows between reads
    }
    for (bool keep_open : {true, false}) {
        ProcStatFiles files(child, keep_open);
        auto first = files.stat();
        REQUIRE(first);
        CHECK(first->ppid == getpid());
        CHECK(first->start_time == read_proc_stat(child)->start_time);
        REQUIRE(files.main_thread_stat());
        REQUIRE(files.main_thread_schedstat());
        // Made anew, not the first read's text. On a loaded machine the busy child may wait for a
        // CPU for longer than any one pause: up to 5 s of 10-ms pauses for its run time to grow.
        const uint64_t run_before = files.main_thread_schedstat()->run_ns;
        uint64_t run_after = run_before;
        for (int i = 0; i < 500 && run_after == run_before; ++i) {
            usleep(10000);
            run_after = files.main_thread_schedstat()->run_ns;
        }
        CHECK(run_after > run_before);
        CHECK(files.stat()->cpu_ticks >= first->cpu_ticks);
        // Its CPU quota's throttle count, as read by path (none here: the two read the same cgroup).
        CHECK(files.cpu_throttled_periods() == read_cpu_throttled_periods(child));
        CHECK(files.cpu_throttled_periods() == read_cpu_throttled_periods(child));  // kept open, read again
        REQUIRE(files.written_bytes());  // it writes nothing: the count stays
        CHECK(files.written_bytes() == files.written_bytes());
    }
    ProcStatFiles open_before(child, true);
    REQUIRE(open_before.stat());
    const bool has_cpu_stat = open_before.cpu_throttled_periods().has_value();
    CHECK(has_cpu_stat == cpu_stat_path(*read_bounded("/proc/self/cgroup", 4096)).has_value());
    kill(child, SIGKILL);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    // Reaped: the descriptors opened before name a process that is gone, whatever takes its pid next.
    CHECK_FALSE(open_before.stat());
    CHECK_FALSE(open_before.main_thread_schedstat());
    CHECK_FALSE(open_before.cpu_throttled_periods());  // its cgroup file names the gone process too
    CHECK_FALSE(open_before.written_bytes());
}
