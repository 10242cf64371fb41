/* queue: a shared task queue in passive-target mode (lock_all once, flush).
 * A global task counter lives in rank 0's window; every rank takes the next
 * task with MPI_Fetch_and_op(+1) and a flush, computes it (a small dense
 * matrix-vector product, a few tens of microseconds, in private memory), and
 * adds the result into the owner's result slot with MPI_Accumulate(MPI_SUM),
 * locally completed by MPI_Win_flush_local before its buffer is reused. The
 * ITERATIONS argument is the number of tasks of the whole job (so more ranks
 * share the same work). Concurrent Fetch_and_op (same op, type, element) and
 * Accumulate (same op, type, element) are race-free by MPI's atomicity rule.
 * Usage: rma_queue TASKS */
#include <math.h>
#include "kernel.h"

#define SLOTS 1024 /* result slots per rank */
#define M 48       /* task size: an M x M matrix-vector product, 8 times */

static double task_compute(long task, double* mat, double* x, double* y) {
    for (int i = 0; i < M; ++i) x[i] = 1.0 / (1 + ((task + i) % 13));
    for (int rep = 0; rep < 8; ++rep) {
        for (int i = 0; i < M; ++i) {
            double s = 0;
            for (int j = 0; j < M; ++j) s += mat[i * M + j] * x[j];
            y[i] = s;
        }
        double nrm = 0;
        for (int i = 0; i < M; ++i) nrm += y[i] * y[i];
        nrm = 1.0 / sqrt(nrm);
        for (int i = 0; i < M; ++i) x[i] = y[i] * nrm;
    }
    return x[task % M];
}

int main(int argc, char** argv) {
    int rank, size;
    long tasks = kernel_init(&argc, &argv, MPI_THREAD_SINGLE, 20000, &rank, &size);
    /* window: [0] the task counter (used on rank 0 only), [1 .. SLOTS] result slots, as 8-byte units */
    long* mem;
    MPI_Win win;
    MPI_Win_allocate((1 + SLOTS) * 8, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    double* slots = (double*)(mem + 1);
    mem[0] = 0;
    for (int s = 0; s < SLOTS; ++s) slots[s] = 0;
    double* mat = malloc(M * M * sizeof(double));
    double *x = malloc(M * sizeof(double)), *y = malloc(M * sizeof(double));
    for (int i = 0; i < M * M; ++i) mat[i] = 1.0 / (1 + (i * 7 + rank) % 31);
    long done = 0;
    kernel_begin(); /* its barrier orders the initial stores before every remote access */
    MPI_Win_lock_all(0, win);
    for (;;) {
        const long one = 1;
        long task;
        MPI_Fetch_and_op(&one, &task, MPI_LONG, 0, 0, MPI_SUM, win);
        MPI_Win_flush(0, win);
        if (task >= tasks) break;
        double r = task_compute(task, mat, x, y);
        const int owner = (int)(task % size);
        MPI_Accumulate(&r, 1, MPI_DOUBLE, owner, 1 + (task / size) % SLOTS, 1, MPI_DOUBLE, MPI_SUM, win);
        MPI_Win_flush_local(owner, win);
        ++done;
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD); /* every Accumulate is complete everywhere */
    double checksum = 0;
    for (int s = 0; s < SLOTS; ++s) checksum += slots[s];
    kernel_end("queue", tasks, checksum);
    if (rank == 0) printf("rank 0 took %ld of %ld tasks\n", done, tasks);
    free(mat);
    free(x);
    free(y);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
