/* MPI + OpenMP at the origin (built as users build, gcc -fopenmp: mode 1, no recompiling): rank 0's
 * master thread Puts from a buffer under lock_all and flushes it later; meanwhile thread 1 stores to
 * that buffer. "racy": nothing orders the store after the flush; "fixed": an OpenMP barrier after the
 * master's flush orders it. The two threads meet through plain volatile flags, which OpenMP does not
 * see, so that the store falls between the Put and the flush on any machine.
 * Rule applied (MPI-3.1 11.7): an origin buffer may not be updated until its operation completes
 * (here: the flush). */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

#include "omp_case.h"

static int origin[1024] __attribute__((aligned(4096))); /* a page of its own */
static volatile int put_issued, stored;

static void wait_for(volatile int* flag) {
    for (int i = 0; i < 50000 && !*flag; ++i) usleep(100);
}

int main(int argc, char** argv) {
    int racy, *base;
    MPI_Win win;
    int rank = omp_case_allocate(&argc, &argv, "omp_origin_store", &win, &base, &racy);
    if (rank == 0) {
        origin[0] = 7;
        MPI_Win_lock_all(0, win);
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == 0) {
                MPI_Put(origin, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the master's put */
                put_issued = 1;
                if (racy) wait_for(&stored);
                MPI_Win_flush(1, win);
            }
            if (!racy) {
#pragma omp barrier
            }
            if (omp_get_thread_num() == 1) {
                if (racy) wait_for(&put_issued);
                origin[0] = 8; /* thread 1's store */
                stored = 1;
            }
        }
        MPI_Win_unlock_all(win);
    }
    return omp_case_end(&win);
}
