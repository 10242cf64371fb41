/* A read-only MPI_Fetch_and_op / MPI_Get_accumulate (MPI_NO_OP) is a read. Ranks 0
 * and 2 on rank 1's window under lock_all, nothing ordering them.
 * "racy": element 0: rank 0's MPI_NO_OP fetch against rank 2's MPI_Put.
 * "fixed": rank 2 fetches with MPI_NO_OP too. In both: element 1, an MPI_NO_OP
 * Get_accumulate against an MPI_Get (two reads); element 2, an MPI_NO_OP fetch
 * against an MPI_SUM accumulate of the same type (atomic): no race; element 3,
 * an MPI_NO_OP fetch against rank 1's own load of it (seen with --precise): no race. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, *mem, one = 1, got[4] = {0, 0, 0, 0};
    volatile int seen = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    memset(mem, 0, 4 * sizeof(int));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Fetch_and_op(NULL, &got[0], MPI_INT, 1, 0, MPI_NO_OP, win); /* noop fetch */
        MPI_Get_accumulate(NULL, 0, MPI_INT, &got[1], 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_NO_OP, win);
        MPI_Fetch_and_op(NULL, &got[2], MPI_INT, 1, 2, MPI_NO_OP, win);
        MPI_Fetch_and_op(NULL, &got[3], MPI_INT, 1, 3, MPI_NO_OP, win);
    }
    if (rank == 2) {
        if (racy)
            MPI_Put(&one, 1, MPI_INT, 1, 0, 1, MPI_INT, win); /* the put */
        else
            MPI_Fetch_and_op(NULL, &got[0], MPI_INT, 1, 0, MPI_NO_OP, win);
        MPI_Get(&got[1], 1, MPI_INT, 1, 1, 1, MPI_INT, win);
        MPI_Accumulate(&one, 1, MPI_INT, 1, 2, 1, MPI_INT, MPI_SUM, win);
    }
    if (rank == 1) seen = mem[3];
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    (void)seen;
    return 0;
}
