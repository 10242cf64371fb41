/* MPI + OpenMP (jobsentry-mpicc -fopenmp): both threads of rank 0 Put to the
 * same bytes of rank 1's window and flush, in one lock_all epoch. "racy": no
 * critical; "fixed": each thread's Put and flush in one critical section.
 * Rule applied (MPI-3.1 11.7): two Puts to the same location conflict unless
 * one completes before the other is issued. Inside the critical section the
 * flush completes a thread's Put before the section is left, and the next
 * thread's Put is issued after it enters: ordered. (The two Puts in one
 * critical section but without the flush would still be a race: a critical
 * section orders the calls, not the completion of the operations.) */
#include <omp.h>

#include "omp_case.h"

int main(int argc, char** argv) {
    int racy;
    MPI_Win win;
    int rank = omp_case_begin(&argc, &argv, "omp_critical", &win, &racy);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
#pragma omp parallel num_threads(2)
        {
            int value = 10 + omp_get_thread_num();
            if (racy) {
                MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the unprotected put */
                MPI_Win_flush(1, win);
            } else {
#pragma omp critical
                {
                    MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the put in critical */
                    MPI_Win_flush(1, win);
                }
            }
        }
        MPI_Win_unlock_all(win);
    }
    return omp_case_end(&win);
}
