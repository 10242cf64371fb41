/* Threads of one rank (no OpenMP): rank 0's two pthreads Put to the same bytes
 * of rank 1's window inside one lock_all epoch opened by the main thread.
 * "racy": both threads make the Puts, nothing orders them (the second thread
 * only starts later: its events are usually recorded after the first's, which
 * looks ordered, so the race is missed unless the calls interleave); the report
 * must say the threads' order was not checked, never a silent "no race".
 * "fixed": the threads only compute the values, the main thread makes every
 * MPI call (nothing to say). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static MPI_Win win;
static int racy, values[2];

static void* worker(void* arg) {
    int i = (int)(long)arg;
    values[i] = 10 + i;
    if (i == 1) usleep(200000); /* timing, not synchronisation */
    if (racy) {
        MPI_Put(&values[i], 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the thread's put */
        MPI_Win_flush(1, win);
    }
    return NULL;
}

int main(int argc, char** argv) {
    int rank, provided, buf[8] = {0};
    pthread_t t[2];
    racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "threads: MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        for (long i = 0; i < 2; ++i) pthread_create(&t[i], NULL, worker, (void*)i);
        for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
        if (!racy)
            for (int i = 0; i < 2; ++i) MPI_Put(&values[i], 1, MPI_INT, 1, 3 + i, 1, MPI_INT, win);
        MPI_Win_unlock_all(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
