/* Request-based RMA: rank 1 MPI_Rget's an element of rank 0 under lock_all and
 * reads the result before MPI_Wait completes the request ("racy"), or after
 * it ("fixed"); then the same with MPI_Rget_accumulate (a fetch-and-add)
 * completed by MPI_Waitsome. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, *mem, one = 1, done = 0, index[1];
    static int got, old;
    MPI_Win win;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    mem[0] = 11;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        int seen = -1, before = -1;
        MPI_Win_lock_all(0, win);
        MPI_Rget(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win, &req);
        if (racy) seen = got;
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (!racy) seen = got;
        MPI_Rget_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, win, &req);
        if (racy) before = old;
        while (done == 0) MPI_Waitsome(1, &req, &done, index, MPI_STATUSES_IGNORE);
        if (!racy) before = old;
        MPI_Win_unlock_all(win);
        printf("rank 1 read %d and %d\n", seen, before);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
