/* MPI + OpenMP sections run by one thread (built as users build, gcc -fopenmp: mode 1): rank 0 Puts
 * to rank 1's allocated window and unlocks, then both ranks meet in MPI_Barrier. Rank 1 calls that
 * barrier in one section of a sections construct and loads the Put's bytes in the other, with a team
 * of one thread, which runs the two sections in turn. "racy": OpenMP gives sections no order, so the
 * load is not ordered after the barrier, though this run made it after; "fixed": the load follows the
 * construct (its implicit barrier).
 * Rule applied (MPI-3.1 11.7, OpenMP 5.1 2.10.1): a load of window memory conflicts with a remote Put
 * unless a synchronisation orders them; the sections of one construct are unordered. */
#include <stdio.h>

#include "omp_case.h"

int main(int argc, char** argv) {
    int racy, *base, seen = -1;
    MPI_Win win;
    int rank = omp_case_allocate(&argc, &argv, "omp_sections_one_thread", &win, &base, &racy);
    if (rank == 0) {
        int value = 42;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the put */
        MPI_Win_unlock(1, win);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
#pragma omp parallel num_threads(1)
        {
#pragma omp sections
            {
#pragma omp section
                MPI_Barrier(MPI_COMM_WORLD);
#pragma omp section
                {
                    if (racy) seen = base[3]; /* the section's load */
                }
            }
        }
        if (!racy) seen = base[3];
        printf("rank 1 read %d\n", seen);
    }
    return omp_case_end(&win);
}
