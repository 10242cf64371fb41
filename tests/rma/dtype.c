/* Derived datatypes flattened exactly: ranks 0 and 2 Put a strided vector
 * (every other int) into rank 1's window. "fixed": rank 2 is shifted by one
 * int, so the two vectors interleave without touching each other (a bounding
 * extent would call this a race); "racy": both start at the same element. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, *mem, src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    MPI_Win win;
    MPI_Datatype every_other;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 || rank == 2) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(src, 4, MPI_INT, 1, (rank == 2 && !racy) ? 1 : 0, 1, every_other, win);
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Type_free(&every_other);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
