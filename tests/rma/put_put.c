/* Bug class 4 (slides: pingpong-inj): ranks 0 and 2 Put to the same bytes of
 * rank 1's window under shared locks in the same barrier interval.
 * "racy": overlapping Puts; "fixed": each origin writes its own element. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, buf[8] = {0}, value;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    value = rank;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 || rank == 2) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, racy ? 5 : 5 + rank / 2, 1, MPI_INT, win);
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
