/* Precise mode at -O2: a loop nest that walks rank 1's window row by row (two
 * rows of 8 ints), which jobsentry-mpicc's pass plugin checks once before the
 * outer loop for its whole range (a loop summary) instead of at every store. Rank 0 Puts one int under a shared lock without any
 * ordering against the walk. "racy": into int 10, inside the walk's [0,16) ints.
 * "fixed": into int 16, the first int past it (the summary's range must end
 * exactly where the walk does). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static void walk(int* mem, int half, int scale) {
    for (int r = 0; r < 2; ++r)
        for (int i = 0; i < half; ++i) mem[r * half + i] = (r + i) * scale; /* the walk */
}

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, *mem, value = 5, half = argc > 5 ? atoi(argv[5]) : 8; /* unbounded: real loops (clang 19 unrolls a trip count it can bound) */
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(32 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    memset(mem, 0, 32 * sizeof(int));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, racy ? 10 : 16, 1, MPI_INT, win); /* the put */
        MPI_Win_unlock(1, win);
    }
    if (rank == 1) walk(mem, half, 3 + (argc > 6));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1 && mem[15] < 0) abort(); /* keeps the walk's stores */
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
