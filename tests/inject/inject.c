/* libjobsentry-inject.so: inject a hang into one rank of an UNMODIFIED MPI
 * program, for jobsentry's tests and benchmarks:
 *
 *   LD_PRELOAD=libjobsentry-inject.so JOBSENTRY_INJECT=KIND:RANK:SECONDS mpirun ...
 *
 *   KIND     sleep  sleep forever (nanosleep loop)
 *            spin   busy loop forever in a function of this library
 *            read   block forever in read() on a pipe whose write end stays open
 *            stop   raise(SIGSTOP) on itself (and again if continued)
 *            slow   not a hang: from then on the rank's own code runs F times
 *                   slower, as on a throttled CPU or beside a CPU hog: every 20 ms
 *                   found in user code, (F-1) x 20 ms more are spent spinning in a
 *                   function of this library (never stopped, never in MPI).
 *                   F: JOBSENTRY_INJECT_SLOWDOWN, 1.1 to 20, default 3
 *   RANK     the MPI rank, from OMPI_COMM_WORLD_RANK, PMIX_RANK or PMI_RANK (in
 *            that order); a process with none of them (mpirun, orted) does nothing
 *   SECONDS  when, after the process started (this library's constructor);
 *            may be fractional
 *
 *   JOBSENTRY_INJECT_MARK=PATH  (optional) when the hang begins, append
 *            "<unix time, microseconds> <rank> <pid> <kind>" to PATH
 *
 * The hang starts in the user's code, never inside MPI: at the given time a
 * POSIX timer sends a real-time signal to the main thread only
 * (SIGEV_THREAD_ID); the handler unwinds the interrupted stack with
 * backtrace() and asks dladdr() which file each frame is in. If a frame is in
 * an MPI library (libmpi*, libopen-pal, libopen-rte, libpmix, libpmi*, UCX,
 * libfabric, Open MPI's mca_* components...), it re-arms the timer for 1-5 ms
 * later and returns; otherwise it hangs right there, so the main thread's
 * stack reads: hang function <- handler <- signal frame <- the user's code.
 * After 60 s of retries it gives up with a line on stderr. The rank that
 * hangs also prints "HANG-INJECTED <unix time> <kind> rank <r>" on stderr, the
 * line hangprog prints.
 *
 * A malformed JOBSENTRY_INJECT is reported on stderr by the rank-0 process
 * (one line for the job) and nothing is injected. Processes that a rank starts
 * itself (system(), popen()) inherit the preload but never inject: the rank
 * sets JOBSENTRY_INJECT_ACTIVE=1 in its environment.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

enum kind { KIND_SLEEP, KIND_SPIN, KIND_READ, KIND_STOP, KIND_SLOW, KIND_COUNT };
static const char* const kind_names[] = {"sleep", "spin", "read", "stop", "slow"};

static enum kind inject_kind;
static long inject_rank;
static char mark_path[4096];
static int signo;
static timer_t timer;
static struct timespec first_try; /* when the timer first fired */
static int tried;
static int slowing; /* KIND_SLOW: announced, now stretching the rank's own code */
static double slowdown = 3;
#define SLOW_PERIOD_SECONDS 0.02
static unsigned retry_seed = 12345;

#define GIVE_UP_SECONDS 60

/* ---- async-signal-safe output ---- */

static size_t put_str(char* buf, size_t pos, size_t cap, const char* s) {
    while (*s && pos + 1 < cap) buf[pos++] = *s++;
    return pos;
}

static size_t put_uint(char* buf, size_t pos, size_t cap, unsigned long long v, int min_digits) {
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v || n < min_digits);
    while (n > 0 && pos + 1 < cap) buf[pos++] = tmp[--n];
    return pos;
}

static void write_all(int fd, const char* buf, size_t len) {
    while (len > 0) {
        const ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        buf += w;
        len -= (size_t)w;
    }
}

/* "<unix seconds>.<6 digits> <rank> <pid> <kind>\n" to the mark file, and
 * "HANG-INJECTED <unix seconds>.<3 digits> <kind> rank <r>\n" to stderr
 * ("SLOW-INJECTED ..." for the slow kind). */
static void announce(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    char line[256];
    size_t n;
    if (mark_path[0]) {
        n = put_uint(line, 0, sizeof line, (unsigned long long)now.tv_sec, 1);
        n = put_str(line, n, sizeof line, ".");
        n = put_uint(line, n, sizeof line, (unsigned long long)(now.tv_nsec / 1000), 6);
        n = put_str(line, n, sizeof line, " ");
        n = put_uint(line, n, sizeof line, (unsigned long long)inject_rank, 1);
        n = put_str(line, n, sizeof line, " ");
        n = put_uint(line, n, sizeof line, (unsigned long long)getpid(), 1);
        n = put_str(line, n, sizeof line, " ");
        n = put_str(line, n, sizeof line, kind_names[inject_kind]);
        n = put_str(line, n, sizeof line, "\n");
        const int fd = open(mark_path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0) {
            write_all(fd, line, n); /* one write with O_APPEND: lines of ranks never mix */
            close(fd);
        }
    }
    /* A slowdown is not a hang: its line says so (SLOW-INJECTED), so that
     * nothing that waits for a hang's line mistakes it for one. */
    n = put_str(line, 0, sizeof line, inject_kind == KIND_SLOW ? "SLOW-INJECTED " : "HANG-INJECTED ");
    n = put_uint(line, n, sizeof line, (unsigned long long)now.tv_sec, 1);
    n = put_str(line, n, sizeof line, ".");
    n = put_uint(line, n, sizeof line, (unsigned long long)(now.tv_nsec / 1000000), 3);
    n = put_str(line, n, sizeof line, " ");
    n = put_str(line, n, sizeof line, kind_names[inject_kind]);
    n = put_str(line, n, sizeof line, " rank ");
    n = put_uint(line, n, sizeof line, (unsigned long long)inject_rank, 1);
    n = put_str(line, n, sizeof line, " (jobsentry-inject)\n");
    write_all(STDERR_FILENO, line, n);
}

/* ---- the hangs: noinline, so they are frames of their own ---- */

__attribute__((noinline)) static void inject_sleep_forever(void) {
    for (;;) {
        struct timespec ts = {1000, 0};
        nanosleep(&ts, NULL);
    }
}

__attribute__((noinline)) static void inject_spin_forever(void) {
    volatile double x = 1.0;
    for (;;) x = x * 1.0000001 + 1e-9;
}

__attribute__((noinline)) static void inject_read_forever(void) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) inject_sleep_forever();
    char c;
    for (;;) (void)read(fds[0], &c, 1); /* fds[1] stays open: no EOF, ever */
}

__attribute__((noinline)) static void inject_stop_forever(void) {
    for (;;) raise(SIGSTOP);
}

__attribute__((noinline)) static void inject_slow_spin(double seconds) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    volatile double x = 1.0;
    do {
        for (int i = 0; i < 1000; ++i) x = x * 1.0000001 + 1e-9;
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((double)(now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) * 1e-9 < seconds);
}

/* ---- where the main thread is ---- */

static int is_mpi_file(const char* path) {
    static const char* const prefixes[] = {"libmpi",  "libopen-pal", "libopen-rte", "libmpich", "libpmix",
                                           "libpmi",  "libucp",      "libuct",      "libucs",   "libfabric",
                                           "libmca_", "mca_"};
    if (!path) return 0;
    const char* base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; ++i)
        if (strncmp(base, prefixes[i], strlen(prefixes[i])) == 0) return 1;
    return 0;
}

static int main_thread_in_mpi(void) {
    void* pcs[128];
    const int n = backtrace(pcs, 128);
    for (int i = 0; i < n; ++i) {
        Dl_info info;
        /* A return address points after the call: look up pc - 1. */
        if (dladdr((char*)pcs[i] - 1, &info) && is_mpi_file(info.dli_fname)) return 1;
    }
    return 0;
}

static void arm(double seconds) {
    struct itimerspec its = {{0, 0}, {0, 0}};
    if (seconds < 1e-6) seconds = 1e-6; /* a zero it_value would disarm it */
    its.it_value.tv_sec = (time_t)seconds;
    its.it_value.tv_nsec = (long)((seconds - (double)its.it_value.tv_sec) * 1e9);
    timer_settime(timer, 0, &its, NULL);
}

/* The signal handler, on the main thread. Why this is safe enough for a test
 * tool: clock_gettime, timer_settime, open, write, close, nanosleep, pipe2,
 * read and raise are async-signal-safe; the output is formatted by hand. Not
 * formally so are backtrace() and dladdr(): backtrace() was called once in
 * the constructor so that libgcc_s is already loaded (no dlopen or malloc
 * here), and with glibc >= 2.35 the unwinder finds frames with the lock-free
 * _dl_find_object; dladdr() takes the loader's lock, which is recursive, so
 * interrupting the main thread inside the loader cannot deadlock it. What
 * remains (say, interrupting a C++ exception being unwound by the same
 * thread) does not happen in the MPI programs this is meant for, and a test
 * would see it as a hang of the wrong kind, not as silent success. */
static void on_signal(int sig) {
    (void)sig;
    const int saved_errno = errno;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!tried) {
        first_try = now;
        tried = 1;
    }
    if (slowing) { /* KIND_SLOW, after the announcement: stretch user code only */
        if (!main_thread_in_mpi()) inject_slow_spin((slowdown - 1) * SLOW_PERIOD_SECONDS);
        arm(SLOW_PERIOD_SECONDS);
        errno = saved_errno;
        return;
    }
    if (main_thread_in_mpi()) {
        const double waited = (double)(now.tv_sec - first_try.tv_sec) + (now.tv_nsec - first_try.tv_nsec) * 1e-9;
        if (waited >= GIVE_UP_SECONDS) {
            char line[256];
            size_t n = put_str(line, 0, sizeof line, "jobsentry-inject: rank ");
            n = put_uint(line, n, sizeof line, (unsigned long long)inject_rank, 1);
            n = put_str(line, n, sizeof line, ": gave up: the main thread was inside MPI every time for 60 s; "
                                              "no hang injected\n");
            write_all(STDERR_FILENO, line, n);
        } else {
            retry_seed = retry_seed * 1103515245u + 12345u;
            arm(0.001 + (retry_seed >> 16) % 4001 * 1e-6); /* 1-5 ms */
        }
        errno = saved_errno;
        return;
    }
    announce();
    switch (inject_kind) {
    case KIND_SLEEP: inject_sleep_forever(); break;
    case KIND_SPIN: inject_spin_forever(); break;
    case KIND_READ: inject_read_forever(); break;
    case KIND_STOP: inject_stop_forever(); break;
    case KIND_SLOW:
        slowing = 1;
        arm(SLOW_PERIOD_SECONDS);
        break;
    case KIND_COUNT: break;
    }
    errno = saved_errno;
}

/* ---- configuration ---- */

static const char* rank_variable(void) {
    static const char* const names[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"};
    for (size_t i = 0; i < sizeof names / sizeof *names; ++i)
        if (getenv(names[i])) return names[i];
    return NULL;
}

/* Parses KIND:RANK:SECONDS; on error returns a description of what was wrong. */
static const char* parse(const char* spec, enum kind* kind, long* rank, double* seconds) {
    static char why[256];
    const char* c1 = strchr(spec, ':');
    const char* c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2 || strchr(c2 + 1, ':')) return "it does not have the form KIND:RANK:SECONDS";
    const size_t klen = (size_t)(c1 - spec);
    int found = 0;
    for (int k = 0; k < KIND_COUNT; ++k)
        if (strlen(kind_names[k]) == klen && strncmp(spec, kind_names[k], klen) == 0) {
            *kind = (enum kind)k;
            found = 1;
        }
    if (!found) {
        snprintf(why, sizeof why, "unknown KIND '%.*s'", (int)(klen < 40 ? klen : 40), spec);
        return why;
    }
    char* end;
    errno = 0;
    const long r = strtol(c1 + 1, &end, 10);
    if (end == c1 + 1 || end != c2 || errno || r < 0) {
        snprintf(why, sizeof why, "RANK '%.*s' is not a rank number >= 0", (int)(c2 - c1 - 1 < 40 ? c2 - c1 - 1 : 40),
                 c1 + 1);
        return why;
    }
    errno = 0;
    const double s = strtod(c2 + 1, &end);
    if (end == c2 + 1 || *end || errno || !isfinite(s) || s < 0) {
        snprintf(why, sizeof why, "SECONDS '%.40s' is not a number of seconds >= 0", c2 + 1);
        return why;
    }
    *rank = r;
    *seconds = s;
    return NULL;
}

__attribute__((constructor)) static void inject_init(void) {
    const char* spec = getenv("JOBSENTRY_INJECT");
    const char* var = rank_variable();
    if (!spec || !var) return; /* not asked, or not an MPI rank (mpirun, orted...) */
    /* A program the rank starts (system(), popen()) inherits LD_PRELOAD and the
     * rank's variables: only the rank itself injects (and reports errors). */
    if (getenv("JOBSENTRY_INJECT_ACTIVE")) return;
    setenv("JOBSENTRY_INJECT_ACTIVE", "1", 1);
    char* end;
    const long my_rank = strtol(getenv(var), &end, 10);
    double seconds;
    const char* why = parse(spec, &inject_kind, &inject_rank, &seconds);
    if (why) {
        if (my_rank == 0)
            fprintf(stderr,
                    "jobsentry-inject: JOBSENTRY_INJECT='%.80s': %s; expected KIND:RANK:SECONDS with KIND one of "
                    "sleep, spin, read, stop, slow (e.g. sleep:1:10); injecting nothing\n",
                    spec, why);
        return;
    }
    const char* size_text = getenv("OMPI_COMM_WORLD_SIZE");
    if (!size_text) size_text = getenv("PMIX_SIZE");
    if (!size_text) size_text = getenv("PMI_SIZE");
    if (my_rank == 0 && size_text && inject_rank >= atol(size_text))
        fprintf(stderr, "jobsentry-inject: JOBSENTRY_INJECT='%.80s': rank %ld is not in this job of %ld ranks; "
                        "injecting nothing\n", spec, inject_rank, atol(size_text));
    if (my_rank != inject_rank) return;
    const char* factor = getenv("JOBSENTRY_INJECT_SLOWDOWN");
    if (inject_kind == KIND_SLOW && factor) {
        slowdown = strtod(factor, &end);
        if (end == factor || *end || !(slowdown >= 1.1 && slowdown <= 20)) {
            fprintf(stderr, "jobsentry-inject: JOBSENTRY_INJECT_SLOWDOWN='%.40s': accepted values are numbers from 1.1 "
                            "to 20; injecting nothing\n", factor);
            return;
        }
    }

    const char* mark = getenv("JOBSENTRY_INJECT_MARK");
    if (mark && *mark) {
        if (strlen(mark) >= sizeof mark_path) {
            fprintf(stderr, "jobsentry-inject: JOBSENTRY_INJECT_MARK is too long; injecting nothing\n");
            return;
        }
        strcpy(mark_path, mark);
    }
    /* Load libgcc_s now: the first backtrace() dlopens it, not allowed in a handler. */
    void* warmup[4];
    backtrace(warmup, 4);

    const pid_t tid = (pid_t)syscall(SYS_gettid);
    if (tid != getpid()) {
        fprintf(stderr, "jobsentry-inject: not loaded on the main thread; injecting nothing\n");
        return;
    }
    signo = SIGRTMAX - 3;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = signo;
    sev.sigev_notify_thread_id = tid;
    if (sigaction(signo, &sa, NULL) != 0 || timer_create(CLOCK_MONOTONIC, &sev, &timer) != 0) {
        fprintf(stderr, "jobsentry-inject: cannot set the timer (%s); injecting nothing\n", strerror(errno));
        return;
    }
    arm(seconds);
}
