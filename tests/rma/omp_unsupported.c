/* A GCC -fopenmp program that needs from libgomp what LLVM libomp lacks
 * (omp_alloc@OMP_5.0.1): mode 1 must not put libomp in libgomp's place (the
 * loader would refuse to start it), must name the missing symbols, and the
 * program runs as built. Rank 0's master Puts, then thread 1 Puts after a
 * barrier: race-free in both variants. */
#include <omp.h>

#include "omp_case.h"

int main(int argc, char** argv) {
    int racy;
    MPI_Win win;
    int rank = omp_case_begin(&argc, &argv, "omp_unsupported", &win, &racy);
    int* value = omp_alloc(sizeof(int), omp_default_mem_alloc);
    *value = 7;
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
#pragma omp parallel num_threads(2)
        {
#pragma omp master
            {
                MPI_Put(value, 1, MPI_INT, 1, 3, 1, MPI_INT, win);
                MPI_Win_flush(1, win);
            }
#pragma omp barrier
            if (omp_get_thread_num() == 1) {
                MPI_Put(value, 1, MPI_INT, 1, 3, 1, MPI_INT, win);
                MPI_Win_flush(1, win);
            }
        }
        MPI_Win_unlock_all(win);
    }
    omp_free(value, omp_default_mem_alloc);
    return omp_case_end(&win);
}
