/* MPI + OpenMP (jobsentry-mpicc -fopenmp): in one lock_all epoch of rank 0, the
 * first of two sections Puts and flushes; after the sections construct the thread
 * that did not run it (a private flag) Puts and flushes to the same bytes of rank
 * 1's window. Not "thread 1": clang hands sections out statically, but GCC's
 * code asks the runtime for them (GOMP_sections_next), so either thread may run it.
 * "racy": `sections nowait`; "fixed": the construct's implicit barrier.
 * Rule applied (MPI-3.1 11.7): two Puts to the same location conflict unless
 * one completes before the other is issued. */
#include <omp.h>

#include "omp_case.h"

static MPI_Win win;

static void first_section(void) {
    int one = 1;
    MPI_Put(&one, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the section's put */
    MPI_Win_flush(1, win);
}

int main(int argc, char** argv) {
    int racy;
    int rank = omp_case_begin(&argc, &argv, "omp_sections", &win, &racy);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
#pragma omp parallel num_threads(2)
        {
            int two = 2, mine = 0;
            if (racy) {
#pragma omp sections nowait
                {
#pragma omp section
                    {
                        first_section();
                        mine = 1;
                    }
#pragma omp section
                    {
                    }
                }
            } else {
#pragma omp sections
                {
#pragma omp section
                    {
                        first_section();
                        mine = 1;
                    }
#pragma omp section
                    {
                    }
                }
            }
            if (!mine) {
                MPI_Put(&two, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the put after the sections */
                MPI_Win_flush(1, win);
            }
        }
        MPI_Win_unlock_all(win);
    }
    return omp_case_end(&win);
}
