/* hangprog: an iterative MPI program (compute, halo exchange with Sendrecv,
 * Allreduce, a periodic Barrier) that can hang on request, for jobsentry's
 * tests and benchmarks.
 *
 *   --seconds S        run time when nothing hangs (default 20)
 *   --iterations N     stop after N iterations instead (fixed work, for timing)
 *   --hang KIND        none | sleep | loop | deadlock (default none)
 *                        sleep:    one rank sleeps forever outside MPI
 *                        loop:     one rank spins forever in a compute loop
 *                        deadlock: every rank posts a receive nobody matches
 *                      (a rank stopped with SIGSTOP is done from outside:
 *                       see --pid-dir)
 *   --hang-rank R      rank that hangs for sleep/loop (default: last rank)
 *   --hang-after S     seconds after start when the hang begins (default 10)
 *   --work-ms W        mean compute time per iteration in ms (default 30)
 *   --long-phases      every ~6 s, rank 0 computes alone for 3-5 s while the
 *                      others wait in MPI_Barrier (hang-free, must not alarm)
 *   --io-phases        the same, but rank 0 writes a checkpoint file with
 *                      O_DSYNC 4 KiB blocks (blocked in the kernel, state D,
 *                      little CPU) instead of computing
 *   --phase-seconds A:B  a phase lasts A to B seconds (default 3:5)
 *   --phase-every G    G seconds between phases, and before the first (default 6)
 *   --io-dir DIR       where --io-phases writes (default $TMPDIR or /tmp); the
 *                      file is unlinked at once and rewritten in place, 64 MiB at most
 *   --pid-dir DIR      each rank writes its pid to DIR/rank.N
 *   --undumpable       prctl(PR_SET_DUMPABLE, 0): ptrace by the same user fails
 *
 * The rank (or rank 0) that starts a hang prints "HANG-INJECTED <unix time>"
 * on stderr, so delays can be measured.
 */
#define _GNU_SOURCE
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <unistd.h>

#include "program_common.h"

enum hang_kind { HANG_NONE, HANG_SLEEP, HANG_LOOP, HANG_DEADLOCK };

#define N 4096
static double grid[N], next_grid[N];
static volatile double sink;

static double unix_now(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec * 1e-6;
}

__attribute__((noinline)) static void relax_row(int i) {
    next_grid[i] = 0.25 * grid[i - 1] + 0.5 * grid[i] + 0.25 * grid[i + 1];
}

__attribute__((noinline)) static void stencil_sweep(int sweeps) {
    for (int s = 0; s < sweeps; ++s) {
        for (int i = 1; i < N - 1; ++i) relax_row(i);
        memcpy(grid + 1, next_grid + 1, sizeof(double) * (N - 2));
    }
}

__attribute__((noinline)) static double local_norm(void) {
    double sum = 0;
    for (int i = 0; i < N; ++i) sum += sqrt(fabs(grid[i]) + 1.0) * exp(-grid[i] * 1e-3);
    return sum;
}

/* Kernels of the long single-rank phase: two of them, so the stack changes. */
__attribute__((noinline)) static void phase_kernel_a(void) {
    stencil_sweep(15000); /* about 60 ms */
}
__attribute__((noinline)) static void phase_kernel_b(void) {
    for (int r = 0; r < 1000; ++r) sink += local_norm();
}
__attribute__((noinline)) static void long_phase(double seconds) {
    double end = MPI_Wtime() + seconds;
    for (int i = 0; MPI_Wtime() < end; ++i) (i % 2 ? phase_kernel_a : phase_kernel_b)();
}

/* A checkpoint write that takes `seconds`: 4 KiB blocks written with O_DSYNC (each waits for the
 * disk) over a 64 MiB region of an unlinked file, so the disk holds nothing afterwards. */
#define IO_BLOCK 4096
#define IO_REGION (64L << 20)
__attribute__((noinline)) static void checkpoint_phase(double seconds, const char* dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/hangprog-checkpoint.XXXXXX", dir);
    int fd = mkostemp(path, O_DSYNC);
    if (fd < 0) {
        perror("hangprog: --io-phases: mkostemp in --io-dir");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    unlink(path);
    static char block[IO_BLOCK];
    double end = MPI_Wtime() + seconds;
    for (long offset = 0; MPI_Wtime() < end; offset = (offset + IO_BLOCK) % IO_REGION) {
        block[0] = (char)offset;
        if (pwrite(fd, block, IO_BLOCK, offset) != IO_BLOCK) {
            perror("hangprog: --io-phases: pwrite");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    close(fd);
}

__attribute__((noinline)) static void sleep_forever(void) {
    for (;;) sleep(1000);
}

__attribute__((noinline)) static void spin_forever(void) {
    volatile double x = 1.0;
    for (;;) x = x * 1.0000001 + 1e-9;
}

static void usage(const char* why) {
    program_usage("hangprog",
                  "[--seconds S | --iterations N] [--hang none|sleep|loop|deadlock] "
                  "[--hang-rank R] [--hang-after S] [--work-ms W] [--long-phases | --io-phases] [--phase-seconds A:B] [--phase-every G] "
                  "[--io-dir DIR] [--pid-dir DIR] [--undumpable]",
                  why);
}

/* The options beside --seconds and --pid-dir. */
static double hang_after = 10, work_ms = 30;
static enum hang_kind hang = HANG_NONE;
static int hang_rank = -1, long_phases = 0, io_phases = 0;
static double phase_min = 3, phase_max = 5, phase_every = 6;
static const char* io_dir = NULL;
static long iterations = 0;

static int own_option(const char* a, const char* v) {
    if (!strcmp(a, "--long-phases")) {
        long_phases = 1;
        return 1;
    }
    if (!strcmp(a, "--io-phases")) {
        long_phases = io_phases = 1;
        return 1;
    }
    if (!strcmp(a, "--undumpable")) {
        prctl(PR_SET_DUMPABLE, 0);
        return 1;
    }
    if (!v) return 0;
    if (phase_option(a, v, &phase_min, &phase_max, &phase_every, usage)) return 2;
    if (!strcmp(a, "--iterations")) iterations = atol(v);
    else if (!strcmp(a, "--work-ms")) work_ms = atof(v);
    else if (!strcmp(a, "--hang-after")) hang_after = atof(v);
    else if (!strcmp(a, "--hang-rank")) hang_rank = atoi(v);
    else if (!strcmp(a, "--io-dir")) io_dir = v;
    else if (!strcmp(a, "--hang")) {
        if (!strcmp(v, "none")) hang = HANG_NONE;
        else if (!strcmp(v, "sleep")) hang = HANG_SLEEP;
        else if (!strcmp(v, "loop")) hang = HANG_LOOP;
        else if (!strcmp(v, "deadlock")) hang = HANG_DEADLOCK;
        else usage("--hang accepts none, sleep, loop, deadlock");
    } else return 0;
    return 2;
}

int main(int argc, char** argv) {
    struct program_options opt = {20, NULL};
    parse_program_options(argc, argv, &opt, own_option, usage);

    int rank, size;
    program_start(&argc, &argv, opt.pid_dir, &rank, &size);
    if (hang_rank < 0 || hang_rank >= size) hang_rank = size - 1;
    for (int i = 0; i < N; ++i) grid[i] = (i * 7 + rank) % 13;
    srand(1000 + rank);

    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    const double start = MPI_Wtime();
    if (!io_dir) io_dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    double next_phase = start + phase_every;
    for (long iteration = 0;; ++iteration) {
        /* Compute with some imbalance between ranks and iterations. */
        /* A sweep costs about 4.4 us here; +-30 % imbalance. */
        const int sweeps = (int)(work_ms * 1000 / 4.4 * (0.7 + 0.6 * (rand() % 1000) / 1000.0));
        stencil_sweep(sweeps > 1 ? sweeps : 1);
        double halo_out = grid[1], halo_in = 0;
        MPI_Sendrecv(&halo_out, 1, MPI_DOUBLE, right, 1, &halo_in, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        grid[0] = halo_in;
        sink += local_norm();

        /* Rank 0 decides, everyone learns it from the Allreduce: stop, hang, phase. */
        double now = MPI_Wtime();
        double flags[3] = {0, 0, 0};
        if (rank == 0) {
            flags[0] = iterations > 0 ? iteration + 1 >= iterations : now - start >= opt.seconds;
            flags[1] = hang != HANG_NONE && now - start >= hang_after;
            flags[2] = long_phases && now >= next_phase;
        }
        double global[3];
        MPI_Allreduce(flags, global, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (global[1] > 0) {
            if (hang == HANG_DEADLOCK) {
                if (rank == 0) fprintf(stderr, "HANG-INJECTED %.3f deadlock\n", unix_now());
                double x;
                MPI_Recv(&x, 1, MPI_DOUBLE, right, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == hang_rank) {
                fprintf(stderr, "HANG-INJECTED %.3f %s rank %d\n", unix_now(),
                        hang == HANG_SLEEP ? "sleep" : "loop", rank);
                if (hang == HANG_SLEEP) sleep_forever();
                spin_forever();
            }
        }
        if (global[2] > 0) {
            if (rank == 0) {
                const double seconds = phase_min + (phase_max - phase_min) * (rand() % 1001) / 1000.0;
                if (io_phases) checkpoint_phase(seconds, io_dir);
                else long_phase(seconds);
            }
            MPI_Barrier(MPI_COMM_WORLD);
            next_phase = MPI_Wtime() + phase_every;
        }
        if (global[0] > 0) break;
        if (iteration % 10 == 0) MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
