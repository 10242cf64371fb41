/* MPI + OpenMP at the target (built as users build, gcc -fopenmp: mode 1, no recompiling): rank 0
 * Puts to rank 1's allocated window and unlocks, then both ranks meet in MPI_Barrier. On rank 1 the
 * master thread calls that barrier while thread 1 loads the Put's bytes. "racy": nothing orders the
 * load after the master's barrier, and it is made while the master is inside MPI (where mode 1 once
 * lifted every protection of the process); "fixed": an OpenMP barrier after the master's
 * MPI_Barrier orders it.
 * Rule applied (MPI-3.1 11.7): a load of window memory conflicts with a remote Put unless a
 * synchronisation orders them: rank 0's unlock precedes its MPI_Barrier, which precedes the end of
 * rank 1's, which the OpenMP barrier orders before thread 1's load. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0, rank, provided, *base, seen = -1;
    MPI_Win win;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "omp_target_load: MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    memset(base, 0, 8 * sizeof(int));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        int value = 42;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the put */
        MPI_Win_unlock(1, win);
        usleep(500000); /* rank 1's master waits inside MPI_Barrier meanwhile */
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
#pragma omp parallel num_threads(2)
        {
#pragma omp master
            MPI_Barrier(MPI_COMM_WORLD);
            if (!racy) {
#pragma omp barrier
            }
            if (omp_get_thread_num() == 1) {
                if (racy) usleep(200000); /* while the master is inside MPI_Barrier */
                seen = base[3];           /* thread 1's load */
            }
        }
        printf("rank 1 read %d\n", seen);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
