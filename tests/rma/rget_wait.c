/* Request-based RMA: rank 1 MPI_Rget's an element of rank 0 under lock_all and
 * reads the result before MPI_Wait completes the request ("racy"), or after
 * it ("fixed"). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, *mem;
    static int got;
    MPI_Win win;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    mem[0] = 11;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        int seen = -1;
        MPI_Win_lock_all(0, win);
        MPI_Rget(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win, &req);
        if (racy) seen = got;
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (!racy) seen = got;
        MPI_Win_unlock_all(win);
        printf("rank 1 read %d\n", seen);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
