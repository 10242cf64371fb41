/* MPI + OpenMP (jobsentry-mpicc -fopenmp): in one lock_all epoch of rank 0, one
 * thread Puts and flushes in a `single`; afterwards the thread that did not run
 * the single (told by a private flag) Puts and flushes to the same bytes of
 * rank 1's window. "racy": `single nowait` (nothing orders the two threads);
 * "fixed": the single's implicit barrier. Rule applied (MPI-3.1 11.7): two Puts
 * to the same location conflict unless one completes before the other is
 * issued. (Had both threads Put after the single inside a `critical`, the racy
 * variant would be ordered whenever the single's thread entered the critical
 * section first: a critical section orders what precedes it in that thread.) */
#include <omp.h>

#include "omp_case.h"

int main(int argc, char** argv) {
    int racy;
    MPI_Win win;
    int rank = omp_case_begin(&argc, &argv, "omp_single", &win, &racy);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
#pragma omp parallel num_threads(2)
        {
            int one = 1, two = 2, ran_single = 0;
            if (racy) {
#pragma omp single nowait
                {
                    ran_single = 1;
                    MPI_Put(&one, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the single's put (nowait) */
                    MPI_Win_flush(1, win);
                }
            } else {
#pragma omp single
                {
                    ran_single = 1;
                    MPI_Put(&one, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the single's put */
                    MPI_Win_flush(1, win);
                }
            }
            if (!ran_single) {
                MPI_Put(&two, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the other thread's put */
                MPI_Win_flush(1, win);
            }
        }
        MPI_Win_unlock_all(win);
    }
    return omp_case_end(&win);
}
