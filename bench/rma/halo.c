/* halo: 2-D heat equation (5-point Jacobi) on a grid decomposed by rows, the
 * halo rows exchanged with MPI_Put between two MPI_Win_fence, a stencil sweep
 * over the whole local block (ROWS x COLS doubles, 4 MiB per array) after
 * every exchange. Two arrays, each its own window (u is read, v written, then
 * they swap), ghost rows 0 and ROWS+1 written only by the neighbours' Puts.
 * Periodic in the row direction. Usage: rma_halo ITERATIONS */
#include <string.h>
#include "kernel.h"

#define ROWS 256
#define COLS 2048

int main(int argc, char** argv) {
    int rank, size;
    long iters = kernel_init(&argc, &argv, MPI_THREAD_SINGLE, 1000, &rank, &size);
    const int up = (rank + size - 1) % size, down = (rank + 1) % size;
    const MPI_Aint bytes = (MPI_Aint)(ROWS + 2) * COLS * sizeof(double);
    double* a[2];
    MPI_Win w[2];
    for (int k = 0; k < 2; ++k)
        MPI_Win_allocate(bytes, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &a[k], &w[k]);
    for (int i = 0; i < ROWS + 2; ++i)
        for (int j = 0; j < COLS; ++j) a[0][i * COLS + j] = a[1][i * COLS + j] = (rank * ROWS + i) % 17 + 0.01 * j;
    double checksum = 0;
    kernel_begin();
    for (long it = 0; it < iters; ++it) {
        const int c = it % 2;
        double *u = a[c], *v = a[1 - c];
        MPI_Win_fence(0, w[c]);
        /* my first row -> the upper neighbour's bottom ghost row; my last row -> the lower one's top ghost */
        MPI_Put(&u[1 * COLS], COLS, MPI_DOUBLE, up, (MPI_Aint)(ROWS + 1) * COLS, COLS, MPI_DOUBLE, w[c]);
        MPI_Put(&u[ROWS * COLS], COLS, MPI_DOUBLE, down, 0, COLS, MPI_DOUBLE, w[c]);
        MPI_Win_fence(0, w[c]);
        for (int i = 1; i <= ROWS; ++i) {
            const double *n = &u[(i - 1) * COLS], *m = &u[i * COLS], *s = &u[(i + 1) * COLS];
            double* o = &v[i * COLS];
            o[0] = m[0];
            for (int j = 1; j < COLS - 1; ++j) o[j] = m[j] + 0.2 * (n[j] + s[j] + m[j - 1] + m[j + 1] - 4 * m[j]);
            o[COLS - 1] = m[COLS - 1];
        }
        checksum += v[(ROWS / 2) * COLS + COLS / 2];
    }
    kernel_end("halo", iters, checksum);
    for (int k = 0; k < 2; ++k) MPI_Win_free(&w[k]);
    MPI_Finalize();
    return 0;
}
