/* ckpt_app: an iterative MPI application that checkpoints to files when
 * jobsentry_ckpt_should_checkpoint() says so, and resumes from its last
 * complete checkpoint when restarted. Its result (printed by rank 0) does
 * not depend on checkpoints or restarts: tests/mpi/ckpt_restart.sh compares
 * a killed-and-restarted run with an uninterrupted one.
 *   ckpt_app --iterations N --dir DIR [--sleep-ms M] [--period-s P]
 * A checkpoint is complete once DIR/latest names it: every rank writes
 * DIR/rank<R>.<iteration> (temporary file, then rename), all ranks meet in a
 * barrier, then rank 0 renames DIR/latest into place. */
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jobsentry_ckpt.h"

#define VALUES 4096

static int rank;

static void die(const char* what, const char* path) {
    fprintf(stderr, "ckpt_app[rank %d]: %s %s: %s\n", rank, what, path, strerror(errno));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

struct state {
    long done;   /* iterations completed */
    double acc;  /* the running result */
    double v[VALUES];
};

static void write_file(const char* path, const void* data, size_t size) {
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE* f = fopen(tmp, "wb");
    if (!f) die("cannot create", tmp);
    if (fwrite(data, 1, size, f) != size || fflush(f) != 0 || fsync(fileno(f)) != 0) die("cannot write", tmp);
    fclose(f);
    if (rename(tmp, path) != 0) die("cannot rename", tmp);
}

static void checkpoint(const char* dir, const struct state* s, long* previous) {
    char path[4096];
    jobsentry_ckpt_begin();
    snprintf(path, sizeof path, "%s/rank%d.%ld", dir, rank, s->done);
    write_file(path, s, sizeof *s);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        snprintf(path, sizeof path, "%s/latest", dir);
        write_file(path, &s->done, sizeof s->done);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (*previous >= 0) { /* only now is the older checkpoint no longer needed */
        snprintf(path, sizeof path, "%s/rank%d.%ld", dir, rank, *previous);
        unlink(path);
    }
    *previous = s->done;
    jobsentry_ckpt_end();
}

/* Returns the iteration of the last complete checkpoint, -1 when none. */
static long restore(const char* dir, struct state* s) {
    char path[4096];
    long done = -1;
    if (rank == 0) {
        snprintf(path, sizeof path, "%s/latest", dir);
        FILE* f = fopen(path, "rb");
        if (f) {
            if (fread(&done, sizeof done, 1, f) != 1) done = -1;
            fclose(f);
        }
    }
    MPI_Bcast(&done, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (done < 0) return -1;
    snprintf(path, sizeof path, "%s/rank%d.%ld", dir, rank, done);
    FILE* f = fopen(path, "rb");
    if (!f) die("cannot open", path);
    if (fread(s, sizeof *s, 1, f) != 1 || s->done != done) die("short or wrong checkpoint", path);
    fclose(f);
    return done;
}

int main(int argc, char** argv) {
    long iterations = 100, sleep_ms = 20;
    double period_s = 3600;
    const char* dir = NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--iterations")) iterations = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--dir")) dir = argv[i + 1];
        else if (!strcmp(argv[i], "--sleep-ms")) sleep_ms = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--period-s")) period_s = atof(argv[i + 1]);
        else {
            if (rank == 0) fprintf(stderr, "ckpt_app: unknown option %s\n", argv[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (!dir || iterations < 1) {
        if (rank == 0) fprintf(stderr, "usage: ckpt_app --iterations N --dir DIR [--sleep-ms M] [--period-s P]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int young_daly = jobsentry_ckpt_init(period_s);

    static struct state s;
    long previous = restore(dir, &s);
    if (previous >= 0) {
        if (rank == 0) fprintf(stderr, "ckpt_app: resumed from iteration %ld\n", previous);
    } else {
        s.done = 0;
        s.acc = 0;
        for (int j = 0; j < VALUES; ++j) s.v[j] = rank + j * 1e-3;
    }
    /* pid files let the test kill one rank mid-run. */
    char path[4096];
    snprintf(path, sizeof path, "%s/pid%d", dir, rank);
    FILE* pf = fopen(path, "w");
    if (pf) {
        fprintf(pf, "%d\n", (int)getpid());
        fclose(pf);
    }

    while (s.done < iterations) {
        double local = 0, global = 0;
        for (int j = 0; j < VALUES; ++j) {
            s.v[j] = 0.999 * s.v[j] + sin((double)(s.done + j + rank));
            local += s.v[j];
        }
        MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        s.acc = 0.5 * s.acc + global;
        ++s.done;
        if (sleep_ms > 0) {
            struct timespec ts = {sleep_ms / 1000, (sleep_ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        }
        jobsentry_ckpt_iteration_end();
        if (s.done < iterations && jobsentry_ckpt_should_checkpoint(MPI_COMM_WORLD)) {
            checkpoint(dir, &s, &previous);
            if (rank == 0) fprintf(stderr, "ckpt_app: checkpoint at iteration %ld\n", s.done);
        }
    }
    if (rank == 0) {
        printf("result %.17g\n", s.acc);
        fprintf(stderr, "ckpt_app: rule %s, threshold %.3gs, checkpoint cost %.3gs, %d checkpoints\n",
                young_daly ? "young-daly" : "period", jobsentry_ckpt_threshold_s(), jobsentry_ckpt_cost_s(),
                jobsentry_ckpt_count());
    }
    MPI_Finalize();
    return 0;
}
