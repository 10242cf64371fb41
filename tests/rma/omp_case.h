/* The frame shared by the MPI + OpenMP cases (omp_*.c): MPI_Init_thread with
 * MPI_THREAD_MULTIPLE (refused plainly when not provided), a window of 8 ints
 * on every rank (over a static buffer, or allocated by MPI), and the end (a
 * barrier, free, finalize). */
#pragma once
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int omp_case_buf[8];

/* MPI_Init_thread (MPI_THREAD_MULTIPLE or a plain refusal); returns the rank; *racy from argv[1]. */
static int omp_case_init(int* argc, char*** argv, const char* name, int* racy) {
    int rank, provided;
    *racy = *argc > 1 && strcmp((*argv)[1], "racy") == 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "%s: MPI_THREAD_MULTIPLE not provided (%d)\n", name, provided);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

/* The window over omp_case_buf (MPI_Win_create). */
static int omp_case_begin(int* argc, char*** argv, const char* name, MPI_Win* win, int* racy) {
    int rank = omp_case_init(argc, argv, name, racy);
    MPI_Win_create(omp_case_buf, sizeof omp_case_buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, win);
    return rank;
}

/* A window of 8 ints MPI allocates (MPI_Win_allocate: watched at the target in mode 1), zeroed, and a
 * barrier after. */
static int omp_case_allocate(int* argc, char*** argv, const char* name, MPI_Win* win, int** base, int* racy) {
    int rank = omp_case_init(argc, argv, name, racy);
    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, base, win);
    memset(*base, 0, 8 * sizeof(int));
    MPI_Barrier(MPI_COMM_WORLD);
    return rank;
}

static int omp_case_end(MPI_Win* win) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(win);
    MPI_Finalize();
    return 0;
}

/* The racy variants' two sides meet (threads 0 and 1 of the team): each says it is here and waits up
 * to 5 s for the other, so the two sides run at the same time on two threads whatever the load of the
 * machine. Plain volatile flags, one per thread: no atomic builtins (the precise mode's runtime
 * answers no __tsan_atomic hooks) and nothing OMPT sees, on purpose: the analysis must not be told. */
static volatile int omp_case_here[2];

static void omp_case_meet(int thread) {
    omp_case_here[thread] = 1;
    for (int i = 0; i < 50000 && !omp_case_here[1 - thread]; ++i) usleep(100);
}
