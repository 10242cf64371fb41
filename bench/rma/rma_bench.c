/* RMA-heavy kernels for bench/rma_overhead.sh (race-free):
 *   halo    Put of boundary cells to both neighbours, fence, a stencil sweep
 *   counter a shared counter on rank 0 under an exclusive lock: Get, flush, Put
 *   gather  rank 0 Gets a block of every rank under lock_all
 * Usage: rma_bench KERNEL ITERATIONS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4096

int main(int argc, char** argv) {
    const char* kernel = argc > 1 ? argv[1] : "halo";
    int iters = argc > 2 ? atoi(argv[2]) : 1000;
    int rank, size;
    double *mem, *work = malloc(N * sizeof(double)), sum = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_allocate((N + 2) * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    for (int i = 0; i < N + 2; ++i) mem[i] = rank + i * 1e-3;
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int it = 0; it < iters; ++it) {
        if (strcmp(kernel, "halo") == 0) {
            MPI_Win_fence(0, win);
            MPI_Put(&work[0], 1, MPI_DOUBLE, left, N + 1, 1, MPI_DOUBLE, win);
            MPI_Put(&work[N - 1], 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, win);
            MPI_Win_fence(0, win);
            for (int i = 1; i < N - 1; ++i) work[i] = 0.5 * mem[i] + 0.25 * (mem[i - 1] + mem[i + 1]);
            sum += work[N / 2];
        } else if (strcmp(kernel, "counter") == 0) {
            double v, next;
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
            MPI_Get(&v, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, win);
            MPI_Win_flush(0, win);
            next = v + 1;
            MPI_Put(&next, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, win);
            MPI_Win_unlock(0, win);
            sum += next;
        } else {
            if (rank == 0) {
                MPI_Win_lock_all(0, win);
                for (int r = 0; r < size; ++r)
                    MPI_Get(work + (r * 64) % N, 64, MPI_DOUBLE, r, 0, 64, MPI_DOUBLE, win);
                MPI_Win_unlock_all(win);
                for (int i = 0; i < N; i += 8) sum += work[i];
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    if (rank == 0) printf("%s %g\n", kernel, sum);
    MPI_Win_free(&win);
    free(work);
    MPI_Finalize();
    return 0;
}
