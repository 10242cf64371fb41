/* MPI + OpenMP (jobsentry-mpicc -fopenmp): rank 0's master thread creates two
 * tasks that each Put to the same bytes of rank 1's window and flush, in one
 * lock_all epoch. "racy": no depend clauses, and the two tasks meet before their
 * Puts (omp_case_meet: so they run at the same time on the two threads);
 * "fixed": depend(out: x) on the first and depend(in: x) on the second, which
 * orders the second task's start after the first's completion (no taskwait
 * between them). Rule applied (MPI-3.1 11.7): two Puts to the same location
 * conflict unless one completes before the other is issued. */
#include <omp.h>

#include "omp_case.h"

static MPI_Win win;

static void put_flush(int value, int first, int meet) {
    if (meet) omp_case_meet(omp_get_thread_num());
    if (first) {
        MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the first task's put */
    } else {
        MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the second task's put */
    }
    MPI_Win_flush(1, win);
}

int main(int argc, char** argv) {
    int racy, x = 0;
    int rank = omp_case_begin(&argc, &argv, "omp_depend", &win, &racy);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
#pragma omp parallel num_threads(2)
#pragma omp master
        {
            if (racy) {
#pragma omp task
                put_flush(1, 1, 1);
#pragma omp task
                put_flush(2, 0, 1);
            } else {
#pragma omp task depend(out : x)
                put_flush(1, 1, 0);
#pragma omp task depend(in : x)
                put_flush(2, 0, 0);
            }
        }
        MPI_Win_unlock_all(win);
    }
    (void)x;
    return omp_case_end(&win);
}
