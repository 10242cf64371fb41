/* Bug class 3 (slides: lockopts): rank 0 Puts into rank 1's window under a
 * shared lock while rank 1 stores to the same element without any ordering.
 * Only the precise mode sees the store (window memory is never protected in
 * mode 1). "fixed": rank 1 stores after the barrier that follows the epoch. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, *mem, value = 5;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    for (int i = 0; i < 8; ++i) mem[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win);
        MPI_Win_unlock(1, win);
    }
    if (rank == 1 && racy) mem[3] = 9;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1 && !racy) mem[3] = 9;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
