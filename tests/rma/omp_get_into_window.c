/* MPI + OpenMP, a Get into the rank's own allocated window (built as users build, gcc -fopenmp: mode
 * 1): on rank 0 the master locks rank 1, Gets rank 1's element into its own window's base[0], and
 * unlocks; thread 1 loads base[0]. "racy": the load comes after the Get returned and before the
 * unlock that completes it (the two threads meet in between), so MPI may still write those bytes;
 * MPI's own copy has touched the page by then (it opened the page for the rest of the span once, and
 * the load went unseen). "fixed": an OpenMP barrier after the unlock orders the load.
 * Rule applied (MPI-3.1 11.7): a Get's origin buffer must not be accessed before the Get completes
 * at the origin (unlock, flush or flush_local). */
#include <omp.h>
#include <stdio.h>

#include "omp_case.h"

int main(int argc, char** argv) {
    int racy, *base, seen = -1;
    MPI_Win win;
    int rank = omp_case_allocate(&argc, &argv, "omp_get_into_window", &win, &base, &racy);
    if (rank == 1) base[5] = 42;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == 0) {
                MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
                MPI_Get(&base[0], 1, MPI_INT, 1, 5, 1, MPI_INT, win); /* the get */
                if (racy) omp_case_meet(0);
                MPI_Win_unlock(1, win);
            } else if (racy) {
                omp_case_meet(1);
            }
            if (!racy) {
#pragma omp barrier
            }
            if (omp_get_thread_num() == 1) seen = base[0]; /* thread 1's load */
        }
        printf("rank 0 read %d\n", seen);
    }
    return omp_case_end(&win);
}
