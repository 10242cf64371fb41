/* dgemm_phase: an iterative code where, now and then, one rank computes alone
 * for seconds inside a single function while the others wait in a collective.
 * For jobsentry's tests and benchmarks: healthy, and a hang detector must not
 * call it a hang.
 *
 * Iterations: ~20 ms of compute, a ring MPI_Sendrecv, an MPI_Allreduce that
 * carries rank 0's decisions. Every ~8 s (first after 5 s) one rank, rotating
 * (phase k on rank k % size), multiplies two matrices over and over with a
 * naive triple loop in ONE noinline function (no call inside the hot loop),
 * for 2-4 s of CPU time; the others wait in MPI_Bcast of its result (even phases) or in
 * MPI_Barrier (odd phases).
 *
 *   --seconds S      run time (default 30)
 *   --phase-seconds A:B  each phase's CPU time, A to B seconds (default 2:4)
 *   --phase-every G  a phase every G seconds (default 8; longer phases need a longer G)
 *   --pid-dir DIR    each rank writes its pid to DIR/rank.N
 *   --verbose        the computing rank prints each phase's duration on stderr
 *
 * Every product is checked (sum of C against sum_k colsum(A)_k rowsum(B)_k);
 * rank 0 prints "OK <checksum>" (sum of the products' sums) and exits 0, or
 * FAIL and exit 1.
 */
#define _GNU_SOURCE
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "program_common.h"

#define N 4096
#define PHASE_N 128
#define MAX_REPS 100000
static double grid[N], next_grid[N];
static volatile double sink;

__attribute__((noinline)) static void stencil_sweeps(int sweeps) {
    for (int s = 0; s < sweeps; ++s) {
        for (int i = 1; i < N - 1; ++i) next_grid[i] = 0.25 * grid[i - 1] + 0.5 * grid[i] + 0.25 * grid[i + 1];
        memcpy(grid + 1, next_grid + 1, sizeof(double) * (N - 2));
    }
}

/* C += A B, `reps` times, naive: the whole long phase is spent in this one
 * function, with no call inside it. */
__attribute__((noinline)) static void matmul_repeated(int n, long reps, const double* restrict a,
                                                      const double* restrict b, double* restrict c) {
    for (long r = 0; r < reps; ++r)
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                double s = c[(size_t)i * n + j];
                for (int k = 0; k < n; ++k) s += a[(size_t)i * n + k] * b[(size_t)k * n + j];
                c[(size_t)i * n + j] = s;
            }
}

static double thread_cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The long phase: `target` seconds of CPU time in matmul_repeated. The size
 * is fixed and small (the matrices stay in cache), and one product is timed
 * in CPU time at that same size, so the phase lasts what it should on any
 * machine and under any load: sizing one large product from a small one
 * misjudged the cache misses of the large one by 4x on another machine
 * (a "2 s" phase ran over 8 s, longer than the spin watch). Returns sum(C),
 * or -1 if wrong. */
static double long_phase(double target, int verbose, int rank) {
    const int n = PHASE_N;
    double *a = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n * n), *c = calloc((size_t)n * n, sizeof(double));
    if (!a || !b || !c) {
        fprintf(stderr, "dgemm_phase: out of memory for n=%d\n", n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (size_t i = 0; i < (size_t)n * n; ++i) {
        a[i] = (double)(i * 7 % 5);
        b[i] = (double)(i * 3 % 7);
    }
    double per_product = 1e9;
    for (int t = 0; t < 3; ++t) { /* the fastest of three: a first touch or an interrupt only slows one */
        const double t0 = thread_cpu_seconds();
        matmul_repeated(n, 1, a, b, c);
        const double dt = thread_cpu_seconds() - t0;
        if (dt > 0 && dt < per_product) per_product = dt;
    }
    long reps = (long)(target / per_product);
    if (reps < 1) reps = 1;
    if (reps > MAX_REPS) reps = MAX_REPS;
    const double w0 = MPI_Wtime(), c0 = thread_cpu_seconds();
    matmul_repeated(n, reps, a, b, c);
    if (verbose)
        fprintf(stderr, "dgemm_phase: rank %d: %ld products n=%d in %.2f s CPU, %.2f s wall (target %.2f s CPU)\n",
                rank, reps, n, thread_cpu_seconds() - c0, MPI_Wtime() - w0, target);
    /* C = (3 + reps) A B: small integers, exact in doubles. */
    double sum = 0, expected = 0;
    for (size_t i = 0; i < (size_t)n * n; ++i) sum += c[i];
    for (int k = 0; k < n; ++k) {
        double col = 0, row = 0;
        for (int i = 0; i < n; ++i) {
            col += a[(size_t)i * n + k];
            row += b[(size_t)k * n + i];
        }
        expected += col * row;
    }
    expected *= (double)(3 + reps);
    free(a);
    free(b);
    free(c);
    return sum == expected ? sum : -1;
}

static void usage(const char* why) {
    program_usage("dgemm_phase", "[--seconds S] [--phase-seconds A:B] [--phase-every G] [--pid-dir DIR] [--verbose]",
                  why);
}

static int verbose;
static double phase_min = 2, phase_max = 4, phase_every = 8;

/* --verbose, --phase-seconds, --phase-every */
static int own_option(const char* a, const char* v) {
    if (!strcmp(a, "--verbose")) {
        verbose = 1;
        return 1;
    }
    return v ? phase_option(a, v, &phase_min, &phase_max, &phase_every, usage) : 0;
}

int main(int argc, char** argv) {
    struct program_options opt = {30, NULL};
    parse_program_options(argc, argv, &opt, own_option, usage);

    int rank, size;
    program_start(&argc, &argv, opt.pid_dir, &rank, &size);
    for (int i = 0; i < N; ++i) grid[i] = (i * 7 + rank) % 13;
    /* Sweeps per ~20 ms iteration. */
    int sweeps = 1;
    for (;;) {
        const double t0 = MPI_Wtime();
        stencil_sweeps(sweeps);
        const double dt = MPI_Wtime() - t0;
        if (dt > 0.01 || sweeps > (1 << 20)) {
            sweeps = (int)(sweeps * 0.02 / dt) + 1;
            break;
        }
        sweeps *= 2;
    }

    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    const double start = MPI_Wtime();
    double next_phase = start + 5.0, checksum = 0;
    long phases = 0, errors = 0;
    for (long it = 0;; ++it) {
        stencil_sweeps(sweeps);
        double out = grid[1], in = 0;
        MPI_Sendrecv(&out, 1, MPI_DOUBLE, right, 1, &in, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        grid[0] = in;
        double flags[2] = {0, 0}, global[2];
        if (rank == 0) {
            const double now = MPI_Wtime();
            flags[0] = now - start >= opt.seconds;
            flags[1] = now >= next_phase;
            if (flags[1]) next_phase += phase_every;
        }
        MPI_Allreduce(flags, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (global[1] > 0) {
            const int root = (int)(phases % size);
            const double target = phase_min + fmod(phases * 0.7, 2.0) / 2.0 * (phase_max - phase_min); /* A to B s */
            double result = 0;
            if (rank == root) result = long_phase(target, verbose, rank);
            if (phases % 2) MPI_Barrier(MPI_COMM_WORLD); /* the others wait here... */
            MPI_Bcast(&result, 1, MPI_DOUBLE, root, MPI_COMM_WORLD); /* ...or here */
            if (result < 0) ++errors;
            checksum += result;
            ++phases;
        }
        if (global[0] > 0) break;
    }
    sink = grid[3];

    int status = 0;
    if (rank == 0) {
        if (errors == 0) {
            printf("OK %.0f\n", checksum);
        } else {
            printf("FAIL %ld wrong products\n", errors);
            status = 1;
        }
        fflush(stdout);
    }
    MPI_Finalize();
    return status;
}
