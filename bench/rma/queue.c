/* queue: a shared task queue in passive-target mode (lock_all once, flush).
 * A global task counter lives in rank 0's window; every rank takes the next
 * CHUNK tasks with MPI_Fetch_and_op(+CHUNK) and a flush (chunked
 * self-scheduling), computes them (each a small dense matrix-vector product,
 * about 20 microseconds, in private memory), and adds the chunk's CHUNK results
 * into the owner's result slots with one MPI_Accumulate(MPI_SUM), locally
 * completed by MPI_Win_flush_local before its buffer is reused. The ITERATIONS
 * argument is the number of tasks of the whole job (so more ranks share the
 * same work). Concurrent Fetch_and_op (same op, type, element) and Accumulate
 * (same op, type, elements) are race-free by MPI's atomicity rule.
 * Why chunks: with one Fetch_and_op per task (CHUNK 1) the job is RMA-bound, but
 * rma-report compares every pair of accumulate-family operations on the same
 * bytes within the one lock_all epoch, so its time grows with the square of the
 * counter's updates (130,000 on the counter: still running after 3 minutes).
 * Usage: rma_queue TASKS */
#include <math.h>
#include "kernel.h"

#define SLOTS 1024 /* result slots per rank */
#define M 48       /* task size: an M x M matrix-vector product, REPS times */
#define REPS 32
#define CHUNK 32   /* tasks taken at once */

static double task_compute(long task, double* mat, double* x, double* y) {
    for (int i = 0; i < M; ++i) x[i] = 1.0 / (1 + ((task + i) % 13));
    for (int rep = 0; rep < REPS; ++rep) {
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
    double r[CHUNK];
    kernel_begin(); /* its barrier orders the initial stores before every remote access */
    MPI_Win_lock_all(0, win);
    for (;;) {
        const long chunk = CHUNK;
        long first;
        MPI_Fetch_and_op(&chunk, &first, MPI_LONG, 0, 0, MPI_SUM, win);
        MPI_Win_flush(0, win);
        if (first >= tasks) break;
        for (int t = 0; t < CHUNK; ++t) r[t] = first + t < tasks ? task_compute(first + t, mat, x, y) : 0;
        const long c = first / CHUNK; /* chunk number */
        const int owner = (int)(c % size);
        MPI_Accumulate(r, CHUNK, MPI_DOUBLE, owner, 1 + (c / size) % (SLOTS / CHUNK) * CHUNK, CHUNK, MPI_DOUBLE,
                       MPI_SUM, win);
        MPI_Win_flush_local(owner, win);
        done += first + CHUNK <= tasks ? CHUNK : tasks - first;
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
