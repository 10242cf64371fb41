/* Two OpenMP threads of rank 0 each Put from their own stack and flush, N times, at the same time:
 * rma-check's mode 1 records both threads' Puts concurrently (its page tables under one lock) and
 * the analysis orders each thread's Puts by its own flushes. Race-free: each thread writes its own
 * element of rank 1's window, and nothing reads it. bench/rma_thread_stress.sh runs it. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int window_memory[8];

int main(int argc, char** argv) {
    int provided, rank;
    const int n = argc > 1 ? atoi(argv[1]) : 3000;
    MPI_Win win;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "put_stress: the MPI library gives no MPI_THREAD_MULTIPLE\n");
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(window_memory, sizeof window_memory, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
#pragma omp parallel num_threads(2)
        {
            const int thread = omp_get_thread_num();
            for (int i = 0; i < n; ++i) {
                int value = i;  /* on this thread's stack: the module protects the origin buffer */
                MPI_Put(&value, 1, MPI_INT, 1, thread, 1, MPI_INT, win);
                MPI_Win_flush(1, win);
            }
        }
        MPI_Win_unlock_all(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    if (rank == 0) printf("put_stress: %d Puts and flushes on each of 2 threads\n", n);
    return 0;
}
