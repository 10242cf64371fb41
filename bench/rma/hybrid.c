/* hybrid: MPI + OpenMP. A 2-D heat equation (5-point Jacobi) on a grid
 * decomposed by columns: the halo columns are strided, exchanged by the master
 * thread with one MPI_Put of an MPI_Type_vector column per neighbour between
 * two MPI_Win_fence (outside any parallel region, MPI_THREAD_FUNNELED); the
 * stencil sweep is an OpenMP parallel for over the rows; every 10 iterations
 * the residual is reduced with MPI_Allreduce. Two arrays (ROWS x (COLS + 2)
 * doubles, 4 MiB each), each its own window, u read, v written, then swapped.
 * Periodic in the column direction. Usage: rma_hybrid ITERATIONS
 * (threads: OMP_NUM_THREADS). */
#include <math.h>
#include <omp.h>
#include "kernel.h"

#define ROWS 2048
#define COLS 256
#define LD (COLS + 2) /* row length: ghost column 0, COLS owned, ghost column COLS+1 */
#define MAXTHREADS 64

int main(int argc, char** argv) {
    int rank, size;
    long iters = kernel_init(&argc, &argv, MPI_THREAD_FUNNELED, 1000, &rank, &size);
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    double* a[2];
    MPI_Win w[2];
    for (int k = 0; k < 2; ++k)
        MPI_Win_allocate((MPI_Aint)ROWS * LD * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &a[k],
                         &w[k]);
    const int nthreads = omp_get_max_threads();
    if (nthreads > MAXTHREADS) {
        fprintf(stderr, "rma_hybrid: at most %d threads\n", MAXTHREADS);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Datatype column;
    MPI_Type_vector(ROWS, 1, LD, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
#pragma omp parallel for
    for (int i = 0; i < ROWS; ++i)
        for (int j = 0; j < LD; ++j) a[0][i * LD + j] = a[1][i * LD + j] = (i + rank * COLS + j) % 23 + 0.5;
    double checksum = 0;
    kernel_begin();
    for (long it = 0; it < iters; ++it) {
        double *u = a[it % 2], *v = a[(it + 1) % 2];
        MPI_Win win = w[it % 2];
        MPI_Win_fence(0, win);
        /* my first column -> the left neighbour's right ghost column; my last column -> the right one's left ghost */
        MPI_Put(&u[1], 1, column, left, COLS + 1, 1, column, win);
        MPI_Put(&u[COLS], 1, column, right, 0, 1, column, win);
        MPI_Win_fence(0, win);
        /* Per-thread partial residuals, not reduction(+:res): clang lowers an OpenMP reduction to atomics
         * (__tsan_atomic64_compare_exchange_val under -fsanitize=thread), which jobsentry-mpicc's module
         * does not define, so such a program does not link in mode 2. */
        double part[MAXTHREADS] = {0};
#pragma omp parallel for
        for (int i = 0; i < ROWS; ++i) {
            double r = 0;
            const double *n = &u[(i > 0 ? i - 1 : i) * LD], *m = &u[i * LD], *s = &u[(i < ROWS - 1 ? i + 1 : i) * LD];
            double* o = &v[i * LD];
            for (int j = 1; j <= COLS; ++j) {
                o[j] = m[j] + 0.2 * (n[j] + s[j] + m[j - 1] + m[j + 1] - 4 * m[j]);
                r += fabs(o[j] - m[j]);
            }
            part[omp_get_thread_num()] += r;
        }
        double res = 0;
        for (int t = 0; t < nthreads; ++t) res += part[t];
        if (it % 10 == 9) {
            double all;
            MPI_Allreduce(&res, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            checksum += all;
        }
    }
    kernel_end("hybrid", iters, checksum);
    MPI_Type_free(&column);
    for (int k = 0; k < 2; ++k) MPI_Win_free(&w[k]);
    MPI_Finalize();
    return 0;
}
