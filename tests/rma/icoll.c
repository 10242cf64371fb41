/* A nonblocking barrier orders at its completion: rank 0 puts into rank 1's
 * window, rank 2 puts to the same element after its MPI_Wait on an MPI_Ibarrier.
 * "racy": rank 0's put is issued between its MPI_Ibarrier and its MPI_Wait, so
 * nothing orders it before rank 2's; "fixed": rank 0 puts before MPI_Ibarrier. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, *mem;
    MPI_Win win;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    /* phase 0: before MPI_Ibarrier; 1: between it and MPI_Wait; 2: after MPI_Wait */
    for (int phase = 0; phase < 3; ++phase) {
        if ((rank == 0 && phase == (racy ? 1 : 0)) || (rank == 2 && phase == 2)) {
            MPI_Put(&rank, 1, MPI_INT, 1, 5, 1, MPI_INT, win); /* the put */
            MPI_Win_flush(1, win);
        }
        if (phase == 0) MPI_Ibarrier(MPI_COMM_WORLD, &req);
        if (phase == 1) MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
