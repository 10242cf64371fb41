/* Atomicity of concurrent accumulates (MPI-3.1 11.7.1), ranks 0 and 2 on rank 1's
 * window under lock_all, nothing ordering them. Per element only the same op on
 * identically aligned elements of the same basic type is atomic.
 * "racy": bytes [0,4): MPI_SUM vs MPI_PROD; bytes [4,8): MPI_INT vs MPI_FLOAT;
 *         bytes [16,24) vs [18,26): two ints each, overlapping misaligned;
 *         bytes [32,36): MPI_Compare_and_swap vs MPI_Fetch_and_op MPI_SUM.
 * "fixed": the same calls with MPI_SUM on MPI_INT at aligned bytes everywhere,
 * and MPI_Compare_and_swap on both sides. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, two[2] = {1, 1}, zero = 0, old = 0;
    char* mem;
    float f = 1.0f;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    memset(mem, 0, 64);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Accumulate(two, 1, MPI_INT, 1, 0, 1, MPI_INT, MPI_SUM, win);  /* op A */
        MPI_Accumulate(two, 1, MPI_INT, 1, 4, 1, MPI_INT, MPI_SUM, win);  /* type A */
        MPI_Accumulate(two, 2, MPI_INT, 1, 16, 2, MPI_INT, MPI_SUM, win); /* align A */
        MPI_Compare_and_swap(two, &zero, &old, MPI_INT, 1, 32, win); /* cas A */
    }
    if (rank == 2) {
        MPI_Accumulate(two, 1, MPI_INT, 1, 0, 1, MPI_INT, racy ? MPI_PROD : MPI_SUM, win); /* op B */
        if (racy)
            MPI_Accumulate(&f, 1, MPI_FLOAT, 1, 4, 1, MPI_FLOAT, MPI_SUM, win); /* type B */
        else
            MPI_Accumulate(two, 1, MPI_INT, 1, 4, 1, MPI_INT, MPI_SUM, win);
        MPI_Accumulate(two, 2, MPI_INT, 1, racy ? 18 : 16, 2, MPI_INT, MPI_SUM, win); /* align B */
        if (racy)
            MPI_Fetch_and_op(two, &old, MPI_INT, 1, 32, MPI_SUM, win); /* cas B */
        else
            MPI_Compare_and_swap(two, &zero, &old, MPI_INT, 1, 32, win);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
