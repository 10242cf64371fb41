/* Accesses wider than their first byte. Precise mode: the compiler checks
 * them at two bytes, and the program's own memcpy reaches the checker through
 * another hook than a plain load or store. Mode 1: a page fault gives the
 * first byte; the analysis decodes the instruction's width. Rank 1 stores 8
 * bytes at byte 2 of its window (unaligned: a packed struct's field, [2,10)) and copies an int into element 5 with memcpy, while
 * rank 0 Puts under a shared lock without any ordering. "racy": the Puts land
 * on int 2 ([8,12), inside the unaligned store) and int 5. "fixed": on int 3
 * ([12,16), just past the store: an access recorded from its last byte, 8 bytes
 * wide, would overlap it) and int 6. */
#include <mpi.h>
#include <string.h>

struct __attribute__((packed)) Unaligned {
    char pad[2];
    long long v;
};

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, *mem, value = 5, copied = 7;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    for (int i = 0; i < 8; ++i) mem[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, racy ? 2 : 3, 1, MPI_INT, win); /* the put near the store */
        MPI_Put(&value, 1, MPI_INT, 1, racy ? 5 : 6, 1, MPI_INT, win); /* the put near the copy */
        MPI_Win_unlock(1, win);
    }
    if (rank == 1) {
        ((struct Unaligned*)mem)->v = 42;     /* the unaligned store */
        memcpy(&mem[5], &copied, sizeof copied); /* the copy */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
