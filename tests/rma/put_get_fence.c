/* Bug class 5 (slides: jacobi-inj): rank 0 Puts and rank 2 Gets the same
 * bytes of rank 1's window in one fence epoch. "fixed": a fence between. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, buf[16] = {0}, value = 7, got = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) MPI_Put(&value, 1, MPI_INT, 1, 10, 1, MPI_INT, win);
    if (!racy) MPI_Win_fence(0, win);
    if (rank == 2) MPI_Get(&got, 1, MPI_INT, 1, 10, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
