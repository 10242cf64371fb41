/* MPI + OpenMP (jobsentry-mpicc -fopenmp): a worksharing loop whose iteration 0
 * (thread 0, schedule static) Puts to rank 1's window and flushes; after the
 * loop thread 1 Puts to the same bytes and flushes, in one lock_all epoch.
 * "racy": the loop is `for nowait` (nothing orders the threads); "fixed": the
 * loop's implicit barrier orders the flushed first Put before the second.
 * Rule applied (MPI-3.1 11.7): two Puts to the same location conflict unless
 * one completes before the other is issued. */
#include <omp.h>

#include "omp_case.h"

static MPI_Win win;

static void iteration(int i) {
    int value = 20 + i;
    if (i == 0) {
        MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the loop's put */
        MPI_Win_flush(1, win);
    }
}

int main(int argc, char** argv) {
    int racy;
    int rank = omp_case_begin(&argc, &argv, "omp_for", &win, &racy);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
#pragma omp parallel num_threads(2)
        {
            int value = 30;
            if (racy) {
#pragma omp for schedule(static) nowait
                for (int i = 0; i < 2; ++i) iteration(i);
            } else {
#pragma omp for schedule(static)
                for (int i = 0; i < 2; ++i) iteration(i);
            }
            if (omp_get_thread_num() == 1) {
                MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the put after the loop */
                MPI_Win_flush(1, win);
            }
        }
        MPI_Win_unlock_all(win);
    }
    return omp_case_end(&win);
}
