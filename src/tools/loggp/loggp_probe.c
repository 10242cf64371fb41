/* jobsentry-loggp-probe: the measuring side of `jobsentry loggp`, run by it
 * under `mpirun -np 2`. Rank 0 is the client, rank 1 the server; for every
 * message size and repetition it measures (ns, CLOCK_MONOTONIC):
 *   rtt    one message 0 -> 1 and one back (PRTT(1,0,s))
 *   send   the time in rank 0's MPI_Send of that message (o_s + (s-1)O_s)
 *   burst  n messages 0 -> 1 back to back and one back (PRTT(n,0,s))
 *   delayed  the same with d ns of spinning after each send (PRTT(n,d,s)),
 *          d = twice the burst's time per message + 1 us: Netgauge's o_s
 *   recv   the time in rank 1's MPI_Recv of a message that has been there for
 *          a while (rank 1 spins before posting it): o_r + (s-1)O_r
 * and rank 0 prints one JSON line per size with all samples; the clock's own
 * cost (median of back-to-back reads) is taken off send and recv. The fit is
 * jobsentry's (loggp/loggp_fit.cpp).
 * Usage: jobsentry-loggp-probe BYTES,BYTES,... REPS BURST_N */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void spin_ns(double ns) {
    double end = now_ns() + ns;
    while (now_ns() < end) {
    }
}

static int cmp_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static double clock_cost(void) {
    double d[101];
    for (int i = 0; i < 101; ++i) {
        double a = now_ns();
        d[i] = now_ns() - a;
    }
    qsort(d, 101, sizeof d[0], cmp_double);
    return d[50];
}

static void print_array(const char* name, const double* v, int n) {
    printf(",\"%s\":[", name);
    for (int i = 0; i < n; ++i) printf(i ? ",%.1f" : "%.1f", v[i]);
    printf("]");
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 4 || size != 2) {
        if (rank == 0) fprintf(stderr, "usage: mpirun -np 2 jobsentry-loggp-probe BYTES,... REPS BURST_N\n");
        MPI_Finalize();
        return 2;
    }
    int reps = atoi(argv[2]), burst = atoi(argv[3]);
    long sizes[64];
    int nsizes = 0;
    long max_bytes = 1;
    for (char* tok = strtok(argv[1], ","); tok && nsizes < 64; tok = strtok(NULL, ",")) {
        sizes[nsizes] = atol(tok);
        if (sizes[nsizes] > max_bytes) max_bytes = sizes[nsizes];
        ++nsizes;
    }
    char* buf = calloc((size_t)max_bytes, 1);
    double* rtt = malloc(sizeof(double) * (size_t)reps);
    double* snd = malloc(sizeof(double) * (size_t)reps);
    double* bst = malloc(sizeof(double) * (size_t)reps);
    double* rcv = malloc(sizeof(double) * (size_t)reps);
    double* dly = malloc(sizeof(double) * (size_t)reps);
    const double clk = clock_cost();
    const int peer = 1 - rank, warmup = 5;
    for (int k = 0; k < nsizes; ++k) {
        const int s = (int)sizes[k];
        /* Ping-pong: rtt and the time in MPI_Send. */
        for (int r = -warmup; r < reps; ++r) {
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 0) {
                double t0 = now_ns();
                MPI_Send(buf, s, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
                double t1 = now_ns();
                MPI_Recv(buf, s, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                double t2 = now_ns();
                if (r >= 0) {
                    rtt[r] = t2 - t0;
                    snd[r] = t1 - t0 - clk;
                }
            } else {
                MPI_Recv(buf, s, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, s, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            }
        }
        /* Burst: n messages back to back, one back. */
        for (int r = -warmup; r < reps; ++r) {
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 0) {
                double t0 = now_ns();
                for (int i = 0; i < burst; ++i) MPI_Send(buf, s, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
                MPI_Recv(buf, s, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (r >= 0) bst[r] = now_ns() - t0;
            } else {
                for (int i = 0; i < burst; ++i) MPI_Recv(buf, s, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, s, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
            }
        }
        /* Delayed burst: d ns of spinning after each send, d above the burst's
         * time per message, so that rank 0's own time per message, d + o_s,
         * sets the pace. */
        qsort(rtt, (size_t)reps, sizeof rtt[0], cmp_double);
        qsort(bst, (size_t)reps, sizeof bst[0], cmp_double);
        double delay = 2 * (bst[reps / 2] - rtt[reps / 2]) / (burst - 1) + 1000;
        if (delay < 1000) delay = 1000;
        MPI_Bcast(&delay, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        for (int r = -warmup; r < reps; ++r) {
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 0) {
                double t0 = now_ns();
                for (int i = 0; i < burst; ++i) {
                    MPI_Send(buf, s, MPI_BYTE, peer, 5, MPI_COMM_WORLD);
                    if (i + 1 < burst) spin_ns(delay);
                }
                MPI_Recv(buf, s, MPI_BYTE, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (r >= 0) dly[r] = now_ns() - t0;
            } else {
                for (int i = 0; i < burst; ++i) MPI_Recv(buf, s, MPI_BYTE, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, s, MPI_BYTE, peer, 5, MPI_COMM_WORLD);
            }
        }
        /* Receive overhead: rank 1 posts the receive well after the message
         * left (a few round trips later), and times the call. */
        double wait = 4 * rtt[reps / 2] + 2000;
        MPI_Bcast(&wait, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        for (int r = -warmup; r < reps; ++r) {
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 0) {
                MPI_Send(buf, s, MPI_BYTE, peer, 3, MPI_COMM_WORLD);
            } else {
                spin_ns(wait);
                double t0 = now_ns();
                MPI_Recv(buf, s, MPI_BYTE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (r >= 0) rcv[r] = now_ns() - t0 - clk;
            }
        }
        if (rank == 1) MPI_Send(rcv, reps, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD);
        else {
            MPI_Recv(rcv, reps, MPI_DOUBLE, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("{\"bytes\":%d,\"burst_n\":%d,\"clock_ns\":%.1f,\"delay_ns\":%.1f", s, burst, clk, delay);
            print_array("rtt", rtt, reps);
            print_array("send", snd, reps);
            print_array("burst", bst, reps);
            print_array("recv", rcv, reps);
            print_array("delayed", dly, reps);
            printf("}\n");
            fflush(stdout);
        }
    }
    free(buf);
    free(rtt);
    free(snd);
    free(bst);
    free(rcv);
    free(dly);
    MPI_Finalize();
    return 0;
}
