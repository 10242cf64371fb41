/* Accumulates of two basic types on the same location (MPI-3.1 11.7.1): not atomic together, and not
 * ordered even from one origin, since accumulate ordering (11.7.2) is "on a per-datatype granularity".
 * One fence epoch on rank 1's window, nothing else ordering the calls.
 * "racy":  bytes [0,16): rank 0 adds 4 MPI_FLOATs, then 4 MPI_INTs (one origin);
 *          bytes [32,36): rank 0 adds an MPI_FLOAT, rank 2 an MPI_INT (two origins).
 * "fixed": the same calls, each second one with MPI_FLOAT (one basic type: atomic, and ordered). */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, ints[4] = {1, 2, 3, 4};
    float floats[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    char* mem;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    memset(mem, 0, 64);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Accumulate(floats, 4, MPI_FLOAT, 1, 0, 4, MPI_FLOAT, MPI_SUM, win); /* the float sum */
        if (racy)
            MPI_Accumulate(ints, 4, MPI_INT, 1, 0, 4, MPI_INT, MPI_SUM, win); /* the int sum */
        else
            MPI_Accumulate(floats, 4, MPI_FLOAT, 1, 0, 4, MPI_FLOAT, MPI_SUM, win);
        MPI_Accumulate(floats, 1, MPI_FLOAT, 1, 32, 1, MPI_FLOAT, MPI_SUM, win); /* rank 0's float */
    }
    if (rank == 2) {
        if (racy)
            MPI_Accumulate(ints, 1, MPI_INT, 1, 32, 1, MPI_INT, MPI_SUM, win); /* rank 2's int */
        else
            MPI_Accumulate(floats, 1, MPI_FLOAT, 1, 32, 1, MPI_FLOAT, MPI_SUM, win);
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
