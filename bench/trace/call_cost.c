/* call_cost: CPU time per MPI call of two tight loops, for the tracer's overhead
 * (bench/trace_overhead.sh runs it with and without the preload module).
 *   test   N calls of MPI_Test on a receive that stays pending (nothing recorded)
 *   pair   N iterations of a zero-byte MPI_Irecv + MPI_Isend with the rank itself and
 *          MPI_Waitall of both: 3 calls, 4 records (irecv, isend, 2 completions)
 * The rank talks to itself and the time is the thread's CPU time, so that a
 * machine shared with other jobs (the other rank descheduled, this one
 * preempted) changes the figures little. Prints "test_ns T pair_ns P" from
 * rank 0 (ns per call; per iteration / 3 for pair).
 *   call_cost N */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    int peer = (rank + 1) % size, flag = 0, dummy = 0;

    MPI_Request pending;
    MPI_Irecv(&dummy, 1, MPI_INT, peer, 99, MPI_COMM_WORLD, &pending);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = cpu_seconds();
    for (long i = 0; i < n; ++i) MPI_Test(&pending, &flag, MPI_STATUS_IGNORE);
    double test = cpu_seconds() - t0;
    MPI_Send(&dummy, 1, MPI_INT, peer, 99, MPI_COMM_WORLD);
    MPI_Wait(&pending, MPI_STATUS_IGNORE);

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Request r[2];
    t0 = cpu_seconds();
    for (long i = 0; i < n; ++i) {
        MPI_Irecv(NULL, 0, MPI_BYTE, rank, 1, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(NULL, 0, MPI_BYTE, rank, 1, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    }
    double pair = cpu_seconds() - t0;
    if (rank == 0) printf("test_ns %.1f pair_ns %.1f\n", test / n * 1e9, pair / n / 3 * 1e9);
    MPI_Finalize();
    return 0;
}
