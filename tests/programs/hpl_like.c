/* hpl_like: the communication pattern of HPL (High-Performance Linpack) with
 * lookahead, for jobsentry's tests and benchmarks. Healthy by default.
 *
 * Iteration j: the panel owner (rank j % size, rotating) factorizes a panel
 * and sends it along the ring (rank k-1 -> k, MPI_Isend/MPI_Irecv posted by
 * MPI_Iprobe + MPI_Recv as in HPL's 1-ring broadcast). Meanwhile every rank
 * updates its trailing matrix with the previous panel in chunks of 5-50 ms
 * (several compute kernels); between chunks it polls the broadcast with
 * MPI_Iprobe (panel arrived?) and MPI_Test (forwarded panel sent?). A rank
 * done with its update before the panel arrives keeps polling, as HPL does:
 * ranks waiting for a slow or hung peer spin in MPI_Iprobe/MPI_Test.
 *
 *   --seconds S      run time (default 30); the panel carries the stop flag
 *   --pid-dir DIR    each rank writes its pid to DIR/rank.N
 *
 * Rank 0 prints "OK <checksum>" (sum of the panels received, checked against
 * the expected value) and exits 0; a wrong panel prints FAIL and exits 1.
 */
#define _GNU_SOURCE
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "program_common.h"

#define PANEL 16384 /* doubles: 128 KB, 2 header words then data */
#define TAG_PANEL 7
#define NB 64 /* block size of the trailing update */

static double panel_buf[2][PANEL];
static double A[NB * NB], B[NB * NB], C[NB * NB];
static double T[4 * NB * 4 * NB]; /* a trailing matrix for the row swaps */
static int pivots[4 * NB];
static volatile double sink;

static long long panel_value(long j, int i) { return (j * 131 + i * 7) % 1009; }

/* The compute kernels: distinct functions so the sampled stacks vary. */
__attribute__((noinline)) static void dgemm_block(int reps) {
    for (int r = 0; r < reps; ++r)
        for (int i = 0; i < NB; ++i)
            for (int k = 0; k < NB; ++k) {
                const double a = A[i * NB + k];
                for (int j = 0; j < NB; ++j) C[i * NB + j] -= a * B[k * NB + j] * 1e-6;
            }
}

__attribute__((noinline)) static void dtrsm_block(int reps) {
    for (int r = 0; r < reps; ++r)
        for (int c = 0; c < NB; ++c)
            for (int i = 0; i < NB; ++i) {
                double x = B[i * NB + c];
                for (int k = 0; k < i; ++k) x -= A[i * NB + k] * 1e-3 * C[k * NB + c];
                C[i * NB + c] = x / (1.0 + A[i * NB + i]);
            }
}

__attribute__((noinline)) static void dlaswp_rows(int reps) {
    const int n = 4 * NB;
    for (int r = 0; r < reps; ++r)
        for (int i = 0; i < n; ++i) {
            const int p = pivots[(i + r) % n];
            for (int j = 0; j < n; ++j) {
                const double t = T[i * n + j];
                T[i * n + j] = T[p * n + j];
                T[p * n + j] = t;
            }
        }
}

__attribute__((noinline)) static int idamax(int n, const double* x, int stride) {
    int best = 0;
    for (int i = 1; i < n; ++i)
        if (fabs(x[i * stride]) > fabs(x[best * stride])) best = i;
    return best;
}

/* Factorize a tall panel of the trailing matrix (partial pivoting), `reps` times. */
__attribute__((noinline)) static void panel_factor(int reps) {
    const int n = 4 * NB;
    for (int r = 0; r < reps; ++r)
        for (int c = 0; c < NB; ++c) {
            const int p = c + idamax(n - c, T + c * n + c, n);
            pivots[c] = p;
            const double d = T[p * n + c] != 0 ? T[p * n + c] : 1.0;
            for (int i = c + 1; i < n; ++i) {
                const double l = T[i * n + c] / d;
                for (int j = c + 1; j < NB; ++j) T[i * n + j] -= l * T[c * n + j] * 1e-9;
            }
        }
}

typedef void (*kernel_fn)(int);
static double per_ms[4]; /* repetitions per millisecond of each kernel */
static const kernel_fn kernels[4] = {dgemm_block, dtrsm_block, dlaswp_rows, panel_factor};
enum { K_DGEMM, K_DTRSM, K_DLASWP, K_FACTOR };

static void calibrate(void) {
    for (int k = 0; k < 4; ++k) per_ms[k] = reps_per_ms(kernels[k]);
}

static void run_kernel(int k, double ms) {
    const int reps = (int)(ms * per_ms[k] + 0.5);
    kernels[k](reps > 0 ? reps : 1);
}

/* State of the panel broadcast of the current iteration. */
struct bcast {
    long j;
    int owner, left, right, have, forward;
    double* buf;
    MPI_Request send;
    long long received_sum;
    long errors;
};

static void poll_bcast(struct bcast* b) {
    if (!b->have) {
        int flag = 0;
        MPI_Iprobe(b->left, TAG_PANEL, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        if (flag) {
            MPI_Recv(b->buf, PANEL, MPI_DOUBLE, b->left, TAG_PANEL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            b->have = 1;
            if ((long)b->buf[0] != b->j) ++b->errors;
            for (int i = 2; i < PANEL; ++i) {
                const long long v = (long long)b->buf[i];
                if (v != panel_value(b->j, i)) ++b->errors;
                b->received_sum += v;
            }
            if (b->forward) MPI_Isend(b->buf, PANEL, MPI_DOUBLE, b->right, TAG_PANEL, MPI_COMM_WORLD, &b->send);
        }
    }
    if (b->send != MPI_REQUEST_NULL) {
        int flag = 0;
        MPI_Test(&b->send, &flag, MPI_STATUS_IGNORE);
    }
}

static void usage(const char* why) { program_usage("hpl_like", "[--seconds S] [--pid-dir DIR]", why); }

int main(int argc, char** argv) {
    struct program_options opt = {30, NULL};
    parse_program_options(argc, argv, &opt, NULL, usage);

    int rank, size;
    program_start(&argc, &argv, opt.pid_dir, &rank, &size);
    srand(4242 + rank);
    for (int i = 0; i < NB * NB; ++i) {
        A[i] = (i * 7 + rank) % 11 * 0.1;
        B[i] = (i * 3 + rank) % 13 * 0.1;
        C[i] = 0;
    }
    for (int i = 0; i < 16 * NB * NB; ++i) T[i] = ((i * 5 + rank) % 17) * 0.25 + 1.0;
    for (int i = 0; i < 4 * NB; ++i) pivots[i] = (i * 37 + 11) % (4 * NB);
    calibrate();

    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    const double start = MPI_Wtime();
    long long received_sum = 0;
    long errors = 0, j;
    for (j = 0;; ++j) {
        struct bcast b = {.j = j, .owner = (int)(j % size), .left = left, .right = right,
                          .buf = panel_buf[j % 2], .send = MPI_REQUEST_NULL};
        b.have = rank == b.owner;
        b.forward = right != b.owner;
        if (rank == b.owner) {
            /* Factorize, then start the ring broadcast; the panel says when to stop. */
            run_kernel(K_FACTOR, 10 + rand() % 20);
            b.buf[0] = (double)j;
            b.buf[1] = MPI_Wtime() - start >= opt.seconds;
            for (int i = 2; i < PANEL; ++i) b.buf[i] = (double)panel_value(j, i);
            if (size > 1) MPI_Isend(b.buf, PANEL, MPI_DOUBLE, right, TAG_PANEL, MPI_COMM_WORLD, &b.send);
        }
        /* Trailing update with the previous panel (lookahead), polling between chunks. */
        run_kernel(K_DLASWP, 5 + rand() % 5);
        poll_bcast(&b);
        run_kernel(K_DTRSM, 5 + rand() % 10);
        poll_bcast(&b);
        const int chunks = 2 + rand() % 3;
        for (int c = 0; c < chunks; ++c) {
            run_kernel(K_DGEMM, 10 + rand() % 40);
            poll_bcast(&b);
        }
        while (!b.have || b.send != MPI_REQUEST_NULL) poll_bcast(&b);
        received_sum += b.received_sum;
        errors += b.errors;
        if (b.buf[1] != 0) break;
    }
    sink = C[5] + T[7];

    long long total_sum = 0;
    long total_errors = 0;
    MPI_Reduce(&received_sum, &total_sum, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&errors, &total_errors, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    int status = 0;
    if (rank == 0) {
        /* Every panel reaches every rank but its owner. */
        long long expected = 0;
        for (long p = 0; p <= j; ++p)
            for (int i = 2; i < PANEL; ++i) expected += panel_value(p, i);
        expected *= size - 1;
        if (total_errors == 0 && total_sum == expected) {
            printf("OK %lld\n", total_sum);
        } else {
            printf("FAIL panels: %ld wrong values, sum %lld expected %lld\n", total_errors, total_sum, expected);
            status = 1;
        }
        fflush(stdout);
    }
    MPI_Finalize();
    return status;
}
