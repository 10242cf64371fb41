/* Bug class 1 (slides: emulate): a Get's result buffer is read and written
 * before the epoch completes (wrong result). "fixed": after the unlock.
 * Twice: into a local int (mode 1 watches it with a debug register) and
 * into a 64-byte heap block, too large for the debug registers (mode 1
 * protects its page). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, size, *buf;
    int out = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* Window memory from MPI (never on the stack page of `out`: mode 1 must not protect window pages). */
    MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win);
    buf[0] = 42;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Get(&out, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        if (racy && out % 2 == 0) out++;
        MPI_Win_unlock(0, win);
        if (!racy && out % 2 == 0) out++;
        printf("rank 1 out %d\n", out);
        int* heap = calloc(16, sizeof(int));
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Get(heap, 16, MPI_INT, 0, 0, 16, MPI_INT, win);
        if (racy && *heap % 2 == 0) *heap += 1; /* heap buffer */
        MPI_Win_unlock(0, win);
        if (!racy && *heap % 2 == 0) *heap += 1;
        printf("rank 1 heap %d\n", *heap);
        free(heap);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
