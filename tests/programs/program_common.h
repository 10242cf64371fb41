/* program_common.h: the start-up that the MPI test programs of this folder
 * (hangprog and the polling programs hpl_like, random_access, ...) share:
 * the usage message, the options every one of them takes (--seconds S and
 * --pid-dir DIR, beside its own), MPI_Init with the pid file each rank
 * writes for the tests, and the calibration of a compute kernel.
 *
 * Header-only (static inline), so that each program stays one source file:
 * CMake builds them, and tests/programs/CMakeLists.txt also compiles some
 * directly with MPICH's mpicc, which finds this header beside the source.
 */
#ifndef JOBSENTRY_PROGRAM_COMMON_H
#define JOBSENTRY_PROGRAM_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "PROG: WHY" and "usage: PROG OPTIONS" on stderr, then exit status 2. */
static inline void program_usage(const char* prog, const char* options, const char* why) {
    fprintf(stderr, "%s: %s\nusage: %s %s\n", prog, why, prog, options);
    exit(2);
}

/* The options every program takes; set the defaults before parsing. */
struct program_options {
    double seconds;      /* --seconds S: run time */
    const char* pid_dir; /* --pid-dir DIR: each rank writes its pid to DIR/rank.N */
};

/* A program's own options: given an argument A and the next one V (NULL at
 * the end), returns how many arguments it takes: 1 (a flag), 2 (an option and
 * its value) or 0 (not one of its options, or its value is missing). */
typedef int (*program_option_fn)(const char* a, const char* v);

/* Parses --seconds S, --pid-dir DIR and the program's own options (`own`,
 * or NULL if it has none); any other argument, or an option without its
 * value, is usage("unknown or incomplete option"). */
static inline void parse_program_options(int argc, char** argv, struct program_options* o, program_option_fn own,
                                         void (*usage)(const char* why)) {
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        int taken = 0;
        if (!strcmp(a, "--seconds") && v) {
            o->seconds = atof(v);
            taken = 2;
        } else if (!strcmp(a, "--pid-dir") && v) {
            o->pid_dir = v;
            taken = 2;
        } else if (own) {
            taken = own(a, v);
        }
        if (!taken) usage("unknown or incomplete option");
        else i += taken - 1;
    }
}

/* --phase-seconds A:B (0 < A <= B) and --phase-every G (G > 0), for the programs with long
 * single-rank phases; returns what own_option returns: 2 when it took one, else 0. */
static inline int phase_option(const char* a, const char* v, double* min, double* max, double* every,
                               void (*usage)(const char* why)) {
    if (!strcmp(a, "--phase-seconds")) {
        if (sscanf(v, "%lf:%lf", min, max) != 2 || *min <= 0 || *max < *min)
            usage("--phase-seconds takes A:B, seconds, 0 < A <= B (e.g. 20:40)");
        return 2;
    }
    if (!strcmp(a, "--phase-every")) {
        *every = atof(v);
        if (*every <= 0) usage("--phase-every takes seconds > 0");
        return 2;
    }
    return 0;
}

/* MPI_Init, this process's rank and the size of MPI_COMM_WORLD; with a pid
 * dir, the rank writes its pid to DIR/rank.N (the tests stop and kill ranks
 * by it). */
static inline void program_start(int* argc, char*** argv, const char* pid_dir, int* rank, int* size) {
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    if (pid_dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/rank.%d", pid_dir, *rank);
        FILE* f = fopen(path, "w");
        if (f) {
            fprintf(f, "%d\n", (int)getpid());
            fclose(f);
        }
    }
}

/* Repetitions per millisecond of a kernel k(reps): reps doubles until one
 * call lasts over 10 ms (or reps passes 2^20). */
static inline double reps_per_ms(void (*k)(int reps)) {
    int reps = 1;
    for (;;) {
        const double t0 = MPI_Wtime();
        k(reps);
        const double dt = MPI_Wtime() - t0;
        if (dt > 0.01 || reps > (1 << 20)) return reps / (dt * 1000);
        reps *= 2;
    }
}

#endif
