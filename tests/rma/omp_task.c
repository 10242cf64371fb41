/* MPI + OpenMP (jobsentry-mpicc -fopenmp): rank 0's master thread creates a task
 * that Puts to rank 1's window and flushes, then Puts to the same bytes and
 * flushes itself, in one lock_all epoch. "racy": no taskwait before the
 * master's Put, and the master and the task meet first (omp_case_meet: the
 * task then runs on the other thread, at the same time); "fixed": a taskwait
 * (the task's completion orders its flushed Put before the master's). Rule
 * applied (MPI-3.1 11.7): two Puts to the same location conflict unless one
 * completes before the other is issued. */
#include <omp.h>

#include "omp_case.h"

int main(int argc, char** argv) {
    int racy;
    MPI_Win win;
    int rank = omp_case_begin(&argc, &argv, "omp_task", &win, &racy);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
#pragma omp parallel num_threads(2)
#pragma omp master
        {
            int mine = 1;
#pragma omp task
            {
                int theirs = 2;
                if (racy) omp_case_meet(omp_get_thread_num());
                MPI_Put(&theirs, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the task's put */
                MPI_Win_flush(1, win);
            }
            if (racy) omp_case_meet(0);
            if (!racy) {
#pragma omp taskwait
            }
            MPI_Put(&mine, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the master's put */
            MPI_Win_flush(1, win);
        }
        MPI_Win_unlock_all(win);
    }
    return omp_case_end(&win);
}
