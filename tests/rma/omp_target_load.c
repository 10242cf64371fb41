/* MPI + OpenMP at the target (built as users build, gcc -fopenmp: mode 1, no recompiling): rank 0
 * Puts to rank 1's allocated window and unlocks, then both ranks meet in MPI_Barrier. On rank 1 the
 * master thread calls that barrier while thread 1 loads the Put's bytes. "racy": nothing orders the
 * load after the master's barrier, and it is made while the master is inside MPI (where mode 1 once
 * lifted every protection of the process); "fixed": an OpenMP barrier after the master's
 * MPI_Barrier orders it.
 * Rule applied (MPI-3.1 11.7): a load of window memory conflicts with a remote Put unless a
 * synchronisation orders them: rank 0's unlock precedes its MPI_Barrier, which precedes the end of
 * rank 1's, which the OpenMP barrier orders before thread 1's load. */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

#include "omp_case.h"

int main(int argc, char** argv) {
    int racy, *base, seen = -1;
    MPI_Win win;
    int rank = omp_case_allocate(&argc, &argv, "omp_target_load", &win, &base, &racy);
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
    return omp_case_end(&win);
}
