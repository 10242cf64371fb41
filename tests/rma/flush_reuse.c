/* Flush as completion: rank 0 Puts from `src` under lock_all and rewrites
 * `src` for the next Put. "fixed": MPI_Win_flush_local first; "racy": no
 * flush, so the store meets the pending Put's origin buffer. */
#include <mpi.h>
#include <string.h>

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
        src[0] = 1;
        MPI_Put(src, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        if (!racy) MPI_Win_flush_local(1, win);
        src[0] = 2;
        MPI_Put(src, 1, MPI_INT, 1, 1, 1, MPI_INT, win);
        MPI_Win_unlock_all(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
