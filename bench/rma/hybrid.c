/* hybrid: MPI + OpenMP. A 2-D heat equation (5-point Jacobi) on a grid
 * decomposed by columns. The OpenMP threads pack the two boundary columns into
 * contiguous send buffers; the master thread (outside any parallel region,
 * MPI_THREAD_FUNNELED) Puts each to its neighbour's receive buffer (the window)
 * between two MPI_Win_fence; the threads unpack the received columns into the
 * ghost columns and run the stencil (OpenMP parallel for over the rows). Every
 * 10 iterations the residual is reduced with MPI_Allreduce. Two arrays of
 * ROWS x (COLS + 2) doubles (4 MiB each), u read, v written, then swapped.
 * Periodic in the column direction. Usage: rma_hybrid ITERATIONS (threads:
 * OMP_NUM_THREADS).
 * Packed columns rather than MPI_Put of an MPI_Type_vector column: with the
 * vector type every Put is recorded with its 2048 blocks (92 MB of trace per
 * rank for 700 iterations), and rma-report compares every pair of Puts to the
 * same ghost column block by block: still running after 3 minutes. */
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
    const int nthreads = omp_get_max_threads();
    if (nthreads > MAXTHREADS) {
        fprintf(stderr, "rma_hybrid: at most %d threads\n", MAXTHREADS);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double* a[2] = {malloc(ROWS * LD * sizeof(double)), malloc(ROWS * LD * sizeof(double))};
    double* send = malloc(2 * ROWS * sizeof(double)); /* [0, ROWS): my first column; [ROWS, 2 ROWS): my last */
    double* recv;                                     /* [0, ROWS): the left ghost column; then the right one */
    MPI_Win win;
    MPI_Win_allocate(2 * ROWS * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &recv, &win);
#pragma omp parallel for
    for (int i = 0; i < ROWS; ++i)
        for (int j = 0; j < LD; ++j) a[0][i * LD + j] = a[1][i * LD + j] = (i + rank * COLS + j) % 23 + 0.5;
    double checksum = 0;
    kernel_begin();
    for (long it = 0; it < iters; ++it) {
        double *u = a[it % 2], *v = a[(it + 1) % 2];
#pragma omp parallel for
        for (int i = 0; i < ROWS; ++i) {
            send[i] = u[i * LD + 1];
            send[ROWS + i] = u[i * LD + COLS];
        }
        MPI_Win_fence(0, win);
        /* my first column -> the left neighbour's right ghost; my last column -> the right one's left ghost */
        MPI_Put(send, ROWS, MPI_DOUBLE, left, ROWS, ROWS, MPI_DOUBLE, win);
        MPI_Put(send + ROWS, ROWS, MPI_DOUBLE, right, 0, ROWS, MPI_DOUBLE, win);
        MPI_Win_fence(0, win);
        /* Per-thread partial residuals, not reduction(+:res): clang lowers an OpenMP reduction to atomics
         * (__tsan_atomic64_compare_exchange_val under -fsanitize=thread), which jobsentry-mpicc's module
         * does not define, so such a program does not link in mode 2. */
        double part[MAXTHREADS] = {0};
#pragma omp parallel for
        for (int i = 0; i < ROWS; ++i) {
            u[i * LD] = recv[i];
            u[i * LD + COLS + 1] = recv[ROWS + i];
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
    MPI_Win_free(&win);
    free(a[0]);
    free(a[1]);
    free(send);
    MPI_Finalize();
    return 0;
}
