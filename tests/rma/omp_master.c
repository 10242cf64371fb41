/* MPI + OpenMP (jobsentry-mpicc -fopenmp): two threads of rank 0 Put to the same
 * bytes of rank 1's window in one lock_all epoch. The master thread Puts and
 * flushes; then thread 1 Puts and flushes. "racy": nothing orders the two
 * threads (master has no barrier); "fixed": an explicit barrier between them.
 * Rule applied (MPI-3.1 11.7): two Puts to the same location conflict unless
 * one completes (here its flush) before the other is issued; the flush of the
 * master's Put before the barrier, and the barrier before thread 1's Put,
 * order them. */
#include <omp.h>

#include "omp_case.h"

int main(int argc, char** argv) {
    int racy;
    MPI_Win win;
    int rank = omp_case_begin(&argc, &argv, "omp_master", &win, &racy);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
#pragma omp parallel num_threads(2)
        {
            int value = 10 + omp_get_thread_num();
#pragma omp master
            {
                MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the master's put */
                MPI_Win_flush(1, win);
            }
            if (!racy) {
#pragma omp barrier
            }
            if (omp_get_thread_num() == 1) {
                MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* thread 1's put */
                MPI_Win_flush(1, win);
            }
        }
        MPI_Win_unlock_all(win);
    }
    return omp_case_end(&win);
}
