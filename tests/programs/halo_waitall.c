/* halo_waitall: a 2-D stencil code with a halo exchange, for jobsentry's tests
 * and benchmarks. Healthy by default.
 *
 * The ranks form a periodic 2-D grid (MPI_Dims_create + MPI_Cart_create).
 * Every iteration: pack the four edges, MPI_Irecv/MPI_Isend with the four
 * neighbours, MPI_Waitall, unpack, then compute sweeps (a conservative
 * diffusion step and a "physics" pass). Every 5 iterations an MPI_Allreduce
 * sums the residual (and carries rank 0's decision to stop). Ranks waiting
 * for a slow or hung neighbour sit in MPI_Waitall (or the Allreduce).
 *
 *   --seconds S      run time (default 30)
 *   --n N            local grid is N x N (default 768)
 *   --heavy R:K      rank R makes K physics passes per iteration instead of 1,
 *                    from the first iteration on: a static imbalance that its
 *                    peers wait for all run long (no sick node)
 *   --progress K     rank 0 prints a line of fixed width every K iterations
 *                    (its iteration and the wall clock), as real codes print a
 *                    line per step: the job's output rate is its pace
 *   --pid-dir DIR    each rank writes its pid to DIR/rank.N
 *
 * The diffusion conserves the global sum: rank 0 prints "OK <sum>" when the
 * final sum equals the initial one (a wrong halo breaks that) and exits 0;
 * otherwise FAIL and exit 1. Rank 0 also says on stderr how many iterations
 * it made in how long.
 */
#define _GNU_SOURCE
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "program_common.h"

static int n = 768;           /* interior points per side */
static int heavy_rank = -1, heavy_passes = 1; /* --heavy R:K */
static long progress_every = 0;               /* --progress K */
static double *u, *unew, *aux; /* (n+2) x (n+2) with halo */
static double *send_edge[4], *recv_edge[4];
#define AT(a, i, j) (a)[(size_t)(i) * (n + 2) + (j)]

__attribute__((noinline)) static void pack_edges(void) {
    for (int i = 0; i < n; ++i) {
        send_edge[0][i] = AT(u, 1, i + 1); /* north row */
        send_edge[1][i] = AT(u, n, i + 1); /* south row */
        send_edge[2][i] = AT(u, i + 1, 1); /* west column */
        send_edge[3][i] = AT(u, i + 1, n); /* east column */
    }
}

__attribute__((noinline)) static void unpack_edges(void) {
    for (int i = 0; i < n; ++i) {
        AT(u, 0, i + 1) = recv_edge[0][i];     /* from the north neighbour */
        AT(u, n + 1, i + 1) = recv_edge[1][i]; /* from the south neighbour */
        AT(u, i + 1, 0) = recv_edge[2][i];     /* from the west neighbour */
        AT(u, i + 1, n + 1) = recv_edge[3][i]; /* from the east neighbour */
    }
}

/* Conservative diffusion: what leaves a cell enters its neighbour. */
__attribute__((noinline)) static double diffusion_sweep(void) {
    double residual = 0;
    for (int i = 1; i <= n; ++i)
        for (int j = 1; j <= n; ++j) {
            const double d = 0.125 * (AT(u, i - 1, j) + AT(u, i + 1, j) + AT(u, i, j - 1) + AT(u, i, j + 1) -
                                      4 * AT(u, i, j));
            AT(unew, i, j) = AT(u, i, j) + d;
            residual += d * d;
        }
    double* t = u;
    u = unew;
    unew = t;
    return residual;
}

/* A pointwise pass that costs more than the stencil, as real physics does. */
__attribute__((noinline)) static void physics_pass(void) {
    for (int i = 1; i <= n; ++i)
        for (int j = 1; j <= n; ++j) AT(aux, i, j) = 0.5 * AT(aux, i, j) + sqrt(fabs(AT(u, i, j)) + 1.0) * 0.01;
}

static double local_sum(void) {
    double s = 0;
    for (int i = 1; i <= n; ++i)
        for (int j = 1; j <= n; ++j) s += AT(u, i, j);
    return s;
}

static void usage(const char* why) {
    program_usage("halo_waitall", "[--seconds S] [--n N] [--heavy R:K] [--progress K] [--pid-dir DIR]", why);
}

/* --n N, --heavy R:K, --progress K */
static int own_option(const char* a, const char* v) {
    if (!v) return 0;
    if (!strcmp(a, "--n")) {
        n = atoi(v);
        return 2;
    }
    if (!strcmp(a, "--progress")) {
        char* end;
        progress_every = strtol(v, &end, 10);
        if (*end || progress_every < 1 || progress_every > 1000000)
            usage("--progress takes K, the iterations between rank 0's lines, from 1 to 1000000");
        return 2;
    }
    if (strcmp(a, "--heavy")) return 0;
    char end;
    if (sscanf(v, "%d:%d%c", &heavy_rank, &heavy_passes, &end) != 2 || heavy_rank < 0 || heavy_passes < 1 ||
        heavy_passes > 100)
        usage("--heavy takes R:K, a rank and its physics passes per iteration from 1 to 100");
    return 2;
}

int main(int argc, char** argv) {
    struct program_options opt = {30, NULL};
    parse_program_options(argc, argv, &opt, own_option, usage);
    if (n < 4) usage("--n must be at least 4");

    int rank, size;
    program_start(&argc, &argv, opt.pid_dir, &rank, &size);
    if (heavy_rank >= size) usage("--heavy names a rank the job does not have");
    int dims[2] = {0, 0}, periods[2] = {1, 1}, coords[2];
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Cart_coords(cart, rank, 2, coords);
    int north, south, west, east;
    MPI_Cart_shift(cart, 0, 1, &north, &south);
    MPI_Cart_shift(cart, 1, 1, &west, &east);
    const int nb[4] = {north, south, west, east};
    /* What I send north arrives as the neighbour's south halo, and so on. */
    const int send_tag[4] = {1, 0, 3, 2}, recv_tag[4] = {0, 1, 2, 3};

    const size_t cells = (size_t)(n + 2) * (n + 2);
    u = calloc(cells, sizeof(double));
    unew = calloc(cells, sizeof(double));
    aux = calloc(cells, sizeof(double));
    for (int e = 0; e < 4; ++e) {
        send_edge[e] = malloc(sizeof(double) * n);
        recv_edge[e] = malloc(sizeof(double) * n);
    }
    for (int i = 1; i <= n; ++i)
        for (int j = 1; j <= n; ++j) {
            const long gi = (long)coords[0] * n + i, gj = (long)coords[1] * n + j;
            AT(u, i, j) = (double)((gi * 7 + gj * 13) % 17);
        }
    double initial_sum, mine = local_sum();
    MPI_Allreduce(&mine, &initial_sum, 1, MPI_DOUBLE, MPI_SUM, cart);

    const double start = MPI_Wtime();
    double residual = 0;
    long it = 0;
    for (;; ++it) {
        MPI_Request req[8];
        pack_edges();
        for (int e = 0; e < 4; ++e)
            MPI_Irecv(recv_edge[e], n, MPI_DOUBLE, nb[e], recv_tag[e], cart, &req[e]);
        for (int e = 0; e < 4; ++e)
            MPI_Isend(send_edge[e], n, MPI_DOUBLE, nb[e], send_tag[e], cart, &req[4 + e]);
        MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
        unpack_edges();
        residual += diffusion_sweep();
        for (int p = rank == heavy_rank ? heavy_passes : 1; p > 0; --p) physics_pass();
        if (rank == 0 && progress_every > 0 && (it + 1) % progress_every == 0) {
            struct timespec now; /* the wall clock: a benchmark sets it beside the fault's time */
            clock_gettime(CLOCK_REALTIME, &now);
            printf("iteration %12ld at %14.3f s\n", it + 1, now.tv_sec + now.tv_nsec * 1e-9); /* 43 bytes */
            fflush(stdout);
        }
        if (it % 5 == 4) {
            double local[2] = {residual, rank == 0 && MPI_Wtime() - start >= opt.seconds}, global[2];
            MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, cart);
            residual = 0;
            if (global[1] > 0) break;
        }
    }

    double final_sum;
    mine = local_sum();
    MPI_Allreduce(&mine, &final_sum, 1, MPI_DOUBLE, MPI_SUM, cart);
    int status = 0;
    if (rank == 0) {
        if (fabs(final_sum - initial_sum) <= 1e-9 * fabs(initial_sum)) {
            printf("OK %.6f\n", final_sum);
            /* The job's pace, for benchmarks that slow it (bench/slow_link.sh). */
            fprintf(stderr, "halo_waitall: %ld iterations in %.1f s\n", it + 1, MPI_Wtime() - start);
        } else {
            printf("FAIL sum %.9g, initial %.9g: a halo was wrong\n", final_sum, initial_sum);
            status = 1;
        }
        fflush(stdout);
    }
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return status;
}
