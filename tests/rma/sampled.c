/* Mode 1's sampling of a hot call site (rmacheck/sampling.h): rank 0 Puts
 * from `src` 20,000 times at one call site, each completed by
 * MPI_Win_flush before `src` is rewritten. "racy": the store of
 * iteration 10 (in the site's warm-up, always watched) and the store of the
 * last iteration (sampled by default; watched with --check-all) come before
 * the flush. */
#include <mpi.h>
#include <string.h>

#define ITERATIONS 20000

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, *mem;
    static int src[4];
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        for (int i = 0; i < ITERATIONS; ++i) {
            MPI_Put(src, 1, MPI_INT, 1, i % 8, 1, MPI_INT, win); /* the put */
            if (racy && i == 10) src[0] = -1;                    /* the early store */
            if (racy && i == ITERATIONS - 1) src[0] = -2;        /* the late store */
            MPI_Win_flush(1, win);
            src[0] = i;
        }
        MPI_Win_unlock_all(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
