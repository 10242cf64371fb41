/* Concurrent accumulates to one element under lock_all: legal with the same
 * operation and basic type ("fixed": MPI_SUM and MPI_SUM), a race otherwise
 * ("racy": MPI_SUM on rank 0, MPI_MAX on rank 2). */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, *mem, one = 1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    if (rank == 0) MPI_Accumulate(&one, 1, MPI_INT, 1, 2, 1, MPI_INT, MPI_SUM, win);
    if (rank == 2) MPI_Accumulate(&one, 1, MPI_INT, 1, 2, 1, MPI_INT, racy ? MPI_MAX : MPI_SUM, win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
