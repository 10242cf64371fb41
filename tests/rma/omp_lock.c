/* MPI + OpenMP (jobsentry-mpicc -fopenmp): both threads of rank 0 Put to the
 * same bytes of rank 1's window and flush, in one lock_all epoch. "racy": no
 * lock; "fixed": each thread's Put and flush between omp_set_lock and
 * omp_unset_lock of one OpenMP lock. Rule applied (MPI-3.1 11.7): two Puts to
 * the same location conflict unless one completes before the other is issued;
 * the flush inside the locked section completes a thread's Put before the
 * other thread can take the lock. */
#include <omp.h>

#include "omp_case.h"

int main(int argc, char** argv) {
    int racy;
    MPI_Win win;
    omp_lock_t lock;
    int rank = omp_case_begin(&argc, &argv, "omp_lock", &win, &racy);
    omp_init_lock(&lock);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
#pragma omp parallel num_threads(2)
        {
            int value = 10 + omp_get_thread_num();
            if (!racy) omp_set_lock(&lock);
            MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the put */
            MPI_Win_flush(1, win);
            if (!racy) omp_unset_lock(&lock);
        }
        MPI_Win_unlock_all(win);
    }
    omp_destroy_lock(&lock);
    return omp_case_end(&win);
}
