/* ring_allreduce: a small iterative program for predicted-vs-measured runs of
 * jobsentry trace (bench/trace_predict.sh) and for trace-to-goal --scale
 * (tests/mpi/trace_goal.sh): ITER iterations of WORK_US of
 * arithmetic, then either a ring exchange (MPI_Sendrecv of BYTES to the right
 * neighbour, from the left) or an MPI_Allreduce of BYTES.
 *   ring_allreduce ring|allreduce ITER WORK_US BYTES */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double sink;

static void work(double us) {
    double t0 = MPI_Wtime(), x = 1.0;
    while ((MPI_Wtime() - t0) * 1e6 < us)
        for (int i = 0; i < 200; ++i) x = x * 1.0000001 + 1e-9;
    sink = x;
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    if (argc != 5) {
        fprintf(stderr, "usage: ring_allreduce ring|allreduce ITER WORK_US BYTES\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int ring = strcmp(argv[1], "ring") == 0, iters = atoi(argv[2]);
    const double work_us = atof(argv[3]);
    const int bytes = atoi(argv[4]);
    char* out = calloc((size_t)bytes + 8, 1);
    char* in = calloc((size_t)bytes + 8, 1);
    for (int i = 0; i < iters; ++i) {
        work(work_us);
        if (ring)
            MPI_Sendrecv(out, bytes, MPI_BYTE, (rank + 1) % size, 0, in, bytes, MPI_BYTE, (rank + size - 1) % size,
                         0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Allreduce(out, in, bytes / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    if (rank == 0) printf("OK\n");
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
