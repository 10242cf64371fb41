/* Post/start/complete/wait: ranks 0 and 2 each Put to element 0 of rank 1
 * in an access epoch. "fixed": two exposure epochs in turn, so rank 2's start
 * matches the second post, which follows the wait for rank 0's complete;
 * "racy": one exposure epoch for both origins. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, *mem, v;
    MPI_Win win;
    MPI_Group world, g_origins, g_origin0, g_origin2, g_target;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int origins[2] = {0, 2}, one = 1, zero = 0, two = 2;
    MPI_Group_incl(world, 2, origins, &g_origins);
    MPI_Group_incl(world, 1, &zero, &g_origin0);
    MPI_Group_incl(world, 1, &two, &g_origin2);
    MPI_Group_incl(world, 1, &one, &g_target);
    v = rank;
    if (rank == 1) {
        if (racy) {
            MPI_Win_post(g_origins, 0, win);
            MPI_Win_wait(win);
        } else {
            MPI_Win_post(g_origin0, 0, win);
            MPI_Win_wait(win);
            MPI_Win_post(g_origin2, 0, win);
            MPI_Win_wait(win);
        }
    } else if (rank == 0 || rank == 2) {
        MPI_Win_start(g_target, 0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_complete(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Group_free(&g_origins), MPI_Group_free(&g_origin0), MPI_Group_free(&g_origin2);
    MPI_Group_free(&g_target), MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
