/* Shared by the RMA benchmark kernels of bench/rma_kernels.sh: the argument,
 * the timed region and its report. Each kernel is race-free MPI: run under
 * `jobsentry rma-check` (either mode) it must produce no finding. Rank 0 prints
 *   KERNEL NAME ranks N iterations I region_s T checksum C
 * where T is the timed region (MPI_Wtime around the kernel's loop, after a
 * barrier), the maximum over ranks. */
#ifndef RMA_BENCH_KERNEL_H
#define RMA_BENCH_KERNEL_H
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double kernel_t0;

/* MPI_Init_thread at the given level (the kernel aborts without it), this
 * rank and the size of MPI_COMM_WORLD; returns the iteration count argument. */
static long kernel_init(int* argc, char*** argv, int thread_level, long dflt, int* rank, int* size) {
    int provided;
    MPI_Init_thread(argc, argv, thread_level, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    long n = *argc > 1 ? atol((*argv)[1]) : dflt;
    if (n <= 0 || provided < thread_level) {
        fprintf(stderr, "%s: usage: %s ITERATIONS (a positive number); thread level %d needed, %d provided\n",
                (*argv)[0], (*argv)[0], thread_level, provided);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return n;
}

static void kernel_begin(void) {
    MPI_Barrier(MPI_COMM_WORLD);
    kernel_t0 = MPI_Wtime();
}

/* Ends the timed region; rank 0 prints the slowest rank's time and the sum of
 * every rank's checksum. */
static void kernel_end(const char* name, long iterations, double checksum) {
    double t = MPI_Wtime() - kernel_t0, tmax, sum;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&checksum, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("KERNEL %s ranks %d iterations %ld region_s %.6f checksum %.12g\n", name, size, iterations, tmax, sum);
        fflush(stdout);
    }
}
#endif
