/* overlap_test: compute/communication overlap, for jobsentry's tests and
 * benchmarks. Healthy by default.
 *
 * Every iteration, each rank posts a nonblocking exchange of 1 MB with both
 * ring neighbours (MPI_Irecv + MPI_Isend), then computes in chunks of ~5 ms,
 * calling MPI_Testall between chunks so the transfer progresses; when its
 * compute is done and the exchange is not, it keeps calling MPI_Testall until
 * it is (ranks waiting for a slow or hung neighbour poll in MPI_Testall).
 * Every 10 iterations an MPI_Allreduce carries rank 0's decision to stop.
 *
 *   --seconds S      run time (default 30)
 *   --pid-dir DIR    each rank writes its pid to DIR/rank.N
 *
 * Every received buffer is checked; rank 0 prints "OK <checksum>" (sum of the
 * values received) and exits 0, or FAIL and exit 1 if a value was wrong.
 */
#define _GNU_SOURCE
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "program_common.h"

#define MSG (128 * 1024) /* doubles per message: 1 MB */
#define WORK 65536

static double *send_left, *send_right, *recv_left, *recv_right;
static double work_a[WORK], work_b[WORK];
static double per_ms_a, per_ms_b; /* repetitions per millisecond */

static long value(long it, int src, int dst, long i) { return (it * 31 + src * 17 + dst * 5 + i) % 1000; }

__attribute__((noinline)) static void compute_chunk_a(int reps) {
    for (int r = 0; r < reps; ++r)
        for (int i = 1; i < WORK - 1; ++i) work_a[i] = 0.3 * work_a[i - 1] + 0.4 * work_a[i] + 0.3 * work_a[i + 1];
}

__attribute__((noinline)) static void compute_chunk_b(int reps) {
    for (int r = 0; r < reps; ++r)
        for (int i = 0; i < WORK; ++i) work_b[i] = sqrt(work_b[i] * work_b[i] + 1.0) - 0.999 * work_a[i];
}

static void fill(double* buf, long it, int src, int dst) {
    for (long i = 0; i < MSG; ++i) buf[i] = (double)value(it, src, dst, i);
}

static long check(const double* buf, long it, int src, int dst, long long* sum) {
    long bad = 0;
    for (long i = 0; i < MSG; ++i) {
        const long v = (long)buf[i];
        bad += v != value(it, src, dst, i);
        *sum += v;
    }
    return bad;
}

static void usage(const char* why) { program_usage("overlap_test", "[--seconds S] [--pid-dir DIR]", why); }

int main(int argc, char** argv) {
    struct program_options opt = {30, NULL};
    parse_program_options(argc, argv, &opt, NULL, usage);

    int rank, size;
    program_start(&argc, &argv, opt.pid_dir, &rank, &size);
    send_left = malloc(sizeof(double) * MSG);
    send_right = malloc(sizeof(double) * MSG);
    recv_left = malloc(sizeof(double) * MSG);
    recv_right = malloc(sizeof(double) * MSG);
    for (int i = 0; i < WORK; ++i) {
        work_a[i] = (i * 7 + rank) % 19;
        work_b[i] = (i * 3 + rank) % 23;
    }
    per_ms_a = reps_per_ms(compute_chunk_a);
    per_ms_b = reps_per_ms(compute_chunk_b);
    srand(777 + rank);

    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    const double start = MPI_Wtime();
    long errors = 0;
    long long sum = 0;
    for (long it = 0;; ++it) {
        MPI_Request req[4];
        fill(send_left, it, rank, left);
        fill(send_right, it, rank, right);
        MPI_Irecv(recv_left, MSG, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(recv_right, MSG, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(send_right, MSG, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(send_left, MSG, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &req[3]);
        /* Overlap: 4-10 chunks of ~5 ms, testing the exchange between chunks. */
        int done = 0;
        const int chunks = 4 + rand() % 7;
        for (int c = 0; c < chunks; ++c) {
            if (c % 2) compute_chunk_b((int)(5 * per_ms_b) + 1);
            else compute_chunk_a((int)(5 * per_ms_a) + 1);
            if (!done) MPI_Testall(4, req, &done, MPI_STATUSES_IGNORE);
        }
        while (!done) MPI_Testall(4, req, &done, MPI_STATUSES_IGNORE);
        errors += check(recv_left, it, left, rank, &sum);
        errors += check(recv_right, it, right, rank, &sum);
        if (it % 10 == 9) {
            int stop = rank == 0 && MPI_Wtime() - start >= opt.seconds, any;
            MPI_Allreduce(&stop, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            if (any) break;
        }
    }

    long long total_sum = 0;
    long total_errors = 0;
    MPI_Reduce(&sum, &total_sum, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&errors, &total_errors, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    int status = 0;
    if (rank == 0) {
        if (total_errors == 0) {
            printf("OK %lld\n", total_sum);
        } else {
            printf("FAIL %ld wrong values received\n", total_errors);
            status = 1;
        }
        fflush(stdout);
    }
    MPI_Finalize();
    return status;
}
