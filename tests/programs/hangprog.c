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
                  "[--hang-rank R] [--hang-after S] [--work-ms W] [--long-phases] [--pid-dir DIR] [--undumpable]",
                  why);
}

/* The options beside --seconds and --pid-dir. */
static double hang_after = 10, work_ms = 30;
static enum hang_kind hang = HANG_NONE;
static int hang_rank = -1, long_phases = 0;
static long iterations = 0;

static int own_option(const char* a, const char* v) {
    if (!strcmp(a, "--long-phases")) {
        long_phases = 1;
        return 1;
    }
    if (!strcmp(a, "--undumpable")) {
        prctl(PR_SET_DUMPABLE, 0);
        return 1;
    }
    if (!v) return 0;
    if (!strcmp(a, "--iterations")) iterations = atol(v);
    else if (!strcmp(a, "--work-ms")) work_ms = atof(v);
    else if (!strcmp(a, "--hang-after")) hang_after = atof(v);
    else if (!strcmp(a, "--hang-rank")) hang_rank = atoi(v);
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
    double next_phase = start + 6.0;
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
            if (rank == 0) long_phase(3.0 + (rand() % 2000) / 1000.0);
            MPI_Barrier(MPI_COMM_WORLD);
            next_phase = MPI_Wtime() + 6.0;
        }
        if (global[0] > 0) break;
        if (iteration % 10 == 0) MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
