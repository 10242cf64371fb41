/* A dup of MPI_COMM_WORLD is a communicator of its own: rank 0 sends on
 * MPI_COMM_WORLD, puts into rank 1's window, then sends on the dup (same tag);
 * rank 2 receives on the dup, then on MPI_COMM_WORLD. "fixed": rank 2 puts to
 * the same element after its receive on the dup (ordered after rank 0's put);
 * "racy": before it. */
#include <mpi.h>
#include <string.h>

static void put(int value, MPI_Win win) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    MPI_Put(&value, 1, MPI_INT, 1, 5, 1, MPI_INT, win); /* the put */
    MPI_Win_unlock(1, win);
}

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, *mem, token = 0;
    MPI_Comm dup;
    MPI_Win win;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Barrier(dup);
    if (rank == 0) {
        MPI_Isend(&token, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &req);
        put(1, win);
        MPI_Send(&token, 1, MPI_INT, 2, 0, dup);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    if (rank == 2) {
        if (racy) put(2, win);
        MPI_Recv(&token, 1, MPI_INT, 0, 0, dup, MPI_STATUS_IGNORE);
        if (!racy) put(2, win);
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
