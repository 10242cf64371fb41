/* Bug class 2 (slides: BT-broadcast): rank 1 polls a flag fetched by MPI_Get
 * inside the epoch; the Get only completes at the unlock, so the loop reads a
 * stale buffer and would spin forever. "racy" gives up after 1 s (printing
 * "hung") so the test stays fast; "hang" really spins until it is killed.
 * "fixed": lock/get/unlock in the loop. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
    int hang = argc > 1 && strcmp(argv[1], "hang") == 0;
    int racy = hang || (argc > 1 && strcmp(argv[1], "racy") == 0);
    int rank, *flag_mem, flag = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &flag_mem, &win);
    *flag_mem = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        usleep(1500000); /* well after rank 1's Get, even on a loaded machine */
        int one = 1;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Put(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
    } else if (rank == 1) {
        double start = MPI_Wtime();
        if (racy) {
            MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
            MPI_Get(&flag, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
            if (hang) { /* tests/rma/hang_killed.sh kills the job once this is out */
                fprintf(stderr, "rank 1 spins\n");
                fflush(stderr);
            }
            while (flag == 0 && (hang || MPI_Wtime() - start < 1.0)) {
            }
            MPI_Win_unlock(0, win);
        } else {
            do {
                MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
                MPI_Get(&flag, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
                MPI_Win_unlock(0, win);
            } while (flag == 0 && MPI_Wtime() - start < 10.0);
        }
        printf("rank 1 %s\n", flag ? "saw the flag" : "hung");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
