/* A thread that makes no MPI call reads a pending Get's 4-byte result buffer:
 * rank 1's main thread Gets into it under a lock and a worker thread (started
 * before, so mode 1 protects the buffer's page instead of watching it with a
 * debug register, which sees only the main thread) reads it before the unlock.
 * "racy": the worker reads inside the epoch; "fixed": after the unlock. */
#include <mpi.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int* got;        /* alone on its page: nothing else faults */
static sem_t go, done;  /* on another page */
static int seen;

static void* worker(void* arg) {
    (void)arg;
    sem_wait(&go);
    seen = *got; /* the worker's load */
    sem_post(&done);
    return NULL;
}

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, *mem;
    pthread_t t;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    mem[0] = 42;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        if (posix_memalign((void**)&got, 4096, 4096) != 0) MPI_Abort(MPI_COMM_WORLD, 3);
        sem_init(&go, 0, 0), sem_init(&done, 0, 0);
        pthread_create(&t, NULL, worker, NULL);
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Get(got, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        if (racy) sem_post(&go), sem_wait(&done);
        MPI_Win_unlock(0, win);
        if (!racy) sem_post(&go), sem_wait(&done);
        pthread_join(t, NULL);
        printf("rank 1 seen %d\n", seen);
        free(got);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
