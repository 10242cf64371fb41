/* master_worker: a task farm, for jobsentry's tests and benchmarks. Healthy by
 * default.
 *
 * Rank 0 is the master: it hands one task to every worker, then loops on
 * MPI_Probe(MPI_ANY_SOURCE) + MPI_Recv of a result and sends that worker its
 * next task (or a stop once the time is up). Tasks have variable sizes: 1 to
 * 200 ms of compute, mostly short. Workers MPI_Recv a task, compute it (two
 * different kernels), and MPI_Send the result back. The master waits in
 * MPI_Probe, an idle worker in MPI_Recv.
 *
 *   --seconds S      run time (default 30)
 *   --pid-dir DIR    each rank writes its pid to DIR/rank.N
 *
 * The master checks every result (a hash of the task id, also computed by the
 * worker) and prints "OK <checksum>" (XOR of the results) and exits 0, or
 * FAIL and exit 1 if a result was wrong, lost or duplicated.
 */
#define _GNU_SOURCE
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "program_common.h"

#define TAG_TASK 1
#define TAG_RESULT 2
#define TAG_STOP 3
#define WORK 32768

static double work[WORK];
static double per_ms_a, per_ms_b;
static volatile double sink;

/* The checkable part of a task's result. */
__attribute__((noinline)) static uint64_t task_hash(int64_t id) {
    uint64_t x = (uint64_t)id * 0x9E3779B97F4A7C15ULL + 1;
    for (int i = 0; i < 64; ++i) {
        x ^= x >> 31;
        x *= 0xBF58476D1CE4E5B9ULL;
        x ^= x >> 29;
    }
    return x;
}

__attribute__((noinline)) static void kernel_integrate(int reps) {
    for (int r = 0; r < reps; ++r) {
        double s = 0;
        for (int i = 0; i < WORK; ++i) s += exp(-work[i] * 1e-3) * 0.5;
        sink += s;
    }
}

__attribute__((noinline)) static void kernel_relax(int reps) {
    for (int r = 0; r < reps; ++r)
        for (int i = 1; i < WORK - 1; ++i) work[i] = 0.25 * work[i - 1] + 0.5 * work[i] + 0.25 * work[i + 1];
}

static void worker(void) {
    for (int i = 0; i < WORK; ++i) work[i] = i % 101;
    per_ms_a = reps_per_ms(kernel_integrate);
    per_ms_b = reps_per_ms(kernel_relax);
    for (;;) {
        int64_t task[2]; /* id, milliseconds */
        MPI_Status st;
        MPI_Recv(task, 2, MPI_INT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == TAG_STOP) return;
        if (task[0] % 2) kernel_integrate((int)(task[1] * per_ms_a) + 1);
        else kernel_relax((int)(task[1] * per_ms_b) + 1);
        uint64_t result[2] = {(uint64_t)task[0], task_hash(task[0])};
        MPI_Send(result, 2, MPI_UINT64_T, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
}

static int master(int size, double seconds) {
    const double start = MPI_Wtime();
    int64_t next_id = 0, *assigned = malloc(sizeof(int64_t) * size);
    long errors = 0, results = 0;
    uint64_t checksum = 0;
    srand(12345);
    int active = 0;
    for (int w = 1; w < size; ++w) {
        /* 1-200 ms, mostly short: 1 + 199 x^3 with x uniform in [0, 1). */
        const double x = (rand() % 1000) / 1000.0;
        int64_t task[2] = {next_id++, 1 + (int64_t)(199 * x * x * x)};
        assigned[w] = task[0];
        MPI_Send(task, 2, MPI_INT64_T, w, TAG_TASK, MPI_COMM_WORLD);
        ++active;
    }
    while (active > 0) {
        MPI_Status st;
        MPI_Probe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
        const int w = st.MPI_SOURCE;
        uint64_t result[2];
        MPI_Recv(result, 2, MPI_UINT64_T, w, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if ((int64_t)result[0] != assigned[w] || result[1] != task_hash(assigned[w])) ++errors;
        checksum ^= result[1];
        ++results;
        if (MPI_Wtime() - start < seconds) {
            const double x = (rand() % 1000) / 1000.0;
            int64_t task[2] = {next_id++, 1 + (int64_t)(199 * x * x * x)};
            assigned[w] = task[0];
            MPI_Send(task, 2, MPI_INT64_T, w, TAG_TASK, MPI_COMM_WORLD);
        } else {
            int64_t stop[2] = {-1, 0};
            MPI_Send(stop, 2, MPI_INT64_T, w, TAG_STOP, MPI_COMM_WORLD);
            --active;
        }
    }
    free(assigned);
    uint64_t expected = 0;
    for (int64_t id = 0; id < next_id; ++id) expected ^= task_hash(id);
    if (errors == 0 && results == next_id && checksum == expected) {
        printf("OK %016llx\n", (unsigned long long)checksum);
        fflush(stdout);
        return 0;
    }
    printf("FAIL %ld wrong results, %ld results for %lld tasks\n", errors, results, (long long)next_id);
    fflush(stdout);
    return 1;
}

static void usage(const char* why) { program_usage("master_worker", "[--seconds S] [--pid-dir DIR]", why); }

int main(int argc, char** argv) {
    struct program_options opt = {30, NULL};
    parse_program_options(argc, argv, &opt, NULL, usage);

    int rank, size;
    program_start(&argc, &argv, opt.pid_dir, &rank, &size);
    int status = 0;
    if (rank == 0) status = master(size, opt.seconds);
    else worker();
    MPI_Finalize();
    return status;
}
