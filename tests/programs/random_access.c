/* random_access: the communication pattern of HPCC RandomAccess (MPI version),
 * for jobsentry's tests and benchmarks. Healthy by default.
 *
 * Every rank owns a slice of a distributed table and generates a stream of
 * pseudo-random 64-bit updates (HPCC's polynomial generator). Updates for its
 * own slice are applied at once (table[i] ^= value); the others are gathered
 * in small buckets per destination and sent with MPI_Isend, while one
 * MPI_Irecv per peer is always posted. The whole time, the rank polls all its
 * requests with MPI_Testany between batches of local updates, applying the
 * updates that arrive. A phase ends when a rank has generated for ~3 s: it
 * flushes its buckets, sends an empty "done" message to every peer, and keeps
 * polling MPI_Testany until every peer said done; an MPI_Allreduce then checks
 * the phase's counts and decides whether to stop. So ranks waiting for a slow
 * or hung peer spin in MPI_Testany.
 *
 *   --seconds S      run time (default 30)
 *   --pid-dir DIR    each rank writes its pid to DIR/rank.N
 *
 * Rank 0 prints "OK <checksum>" (XOR of the whole table, checked against the
 * XOR of every update generated) and exits 0; a lost update prints FAIL and
 * exits 1.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "program_common.h"

#define LOCAL_BITS 20 /* 1 M entries (8 MB) per rank */
#define LOCAL_SIZE (1UL << LOCAL_BITS)
#define BUCKET 128  /* updates per message */
#define SLOTS 4     /* outstanding sends per destination */
#define BATCH 1024  /* updates generated between polls */
#define PHASE_SECONDS 3.0
#define POLY 0x0000000000000007ULL
#define TAG_UPDATES 1
#define TAG_DONE 2

static uint64_t* table;
static int rank, size;
static uint64_t* recv_buf;   /* [size][BUCKET] */
static uint64_t* send_buf;   /* [size][SLOTS][BUCKET] */
static uint64_t* bucket;     /* [size][BUCKET] being filled */
static int* bucket_len;      /* [size] */
static MPI_Request* reqs;    /* [size] receives, then [size][SLOTS] sends */
static int done_from;        /* peers that said done this phase */
static uint64_t applied, generated, generated_xor;

static uint64_t next_random(uint64_t r) { return (r << 1) ^ ((int64_t)r < 0 ? POLY : 0); }

__attribute__((noinline)) static void apply_updates(const uint64_t* u, int n) {
    for (int i = 0; i < n; ++i) table[u[i] & (LOCAL_SIZE - 1)] ^= u[i];
    applied += n;
}

static void post_receive(int peer) {
    MPI_Irecv(recv_buf + (size_t)peer * BUCKET, BUCKET, MPI_UINT64_T, peer, MPI_ANY_TAG, MPI_COMM_WORLD,
              &reqs[peer]);
}

/* Handle every completed request; returns when none is complete. */
static void poll_requests(void) {
    for (;;) {
        int index, flag;
        MPI_Status st;
        MPI_Testany(size + size * SLOTS, reqs, &index, &flag, &st);
        if (!flag || index == MPI_UNDEFINED) return;
        if (index < size) { /* a receive: apply, and re-post unless that peer is done */
            if (st.MPI_TAG == TAG_DONE) {
                ++done_from;
            } else {
                int n;
                MPI_Get_count(&st, MPI_UINT64_T, &n);
                apply_updates(recv_buf + (size_t)index * BUCKET, n);
                post_receive(index);
            }
        } /* a send: its slot is free again (reqs[index] is MPI_REQUEST_NULL) */
    }
}

static void send_bucket(int dest, int tag) {
    MPI_Request* slots = reqs + size + (size_t)dest * SLOTS;
    for (;;) {
        for (int s = 0; s < SLOTS; ++s)
            if (slots[s] == MPI_REQUEST_NULL) {
                uint64_t* buf = send_buf + ((size_t)dest * SLOTS + s) * BUCKET;
                memcpy(buf, bucket + (size_t)dest * BUCKET, sizeof(uint64_t) * bucket_len[dest]);
                MPI_Isend(buf, bucket_len[dest], MPI_UINT64_T, dest, tag, MPI_COMM_WORLD, &slots[s]);
                bucket_len[dest] = 0;
                return;
            }
        poll_requests(); /* every slot busy: wait for one, still serving receives */
    }
}

/* Generate BATCH updates: local ones applied now, remote ones bucketed. */
__attribute__((noinline)) static uint64_t generate_batch(uint64_t ran) {
    for (int i = 0; i < BATCH; ++i) {
        ran = next_random(ran);
        generated_xor ^= ran;
        const int dest = (int)((ran >> 40) % (uint64_t)size);
        if (dest == rank) {
            table[ran & (LOCAL_SIZE - 1)] ^= ran;
            ++applied;
        } else {
            bucket[(size_t)dest * BUCKET + bucket_len[dest]++] = ran;
            if (bucket_len[dest] == BUCKET) send_bucket(dest, TAG_UPDATES);
        }
    }
    generated += BATCH;
    return ran;
}

static void usage(const char* why) { program_usage("random_access", "[--seconds S] [--pid-dir DIR]", why); }

int main(int argc, char** argv) {
    struct program_options opt = {30, NULL};
    parse_program_options(argc, argv, &opt, NULL, usage);

    program_start(&argc, &argv, opt.pid_dir, &rank, &size);
    table = malloc(sizeof(uint64_t) * LOCAL_SIZE);
    recv_buf = malloc(sizeof(uint64_t) * size * BUCKET);
    send_buf = malloc(sizeof(uint64_t) * size * SLOTS * BUCKET);
    bucket = malloc(sizeof(uint64_t) * size * BUCKET);
    bucket_len = calloc(size, sizeof(int));
    reqs = malloc(sizeof(MPI_Request) * (size + size * SLOTS));
    if (!table || !recv_buf || !send_buf || !bucket || !bucket_len || !reqs) {
        fprintf(stderr, "random_access: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    uint64_t initial_xor = 0;
    for (uint64_t i = 0; i < LOCAL_SIZE; ++i) {
        table[i] = i;
        initial_xor ^= i;
    }
    for (int i = 0; i < size + size * SLOTS; ++i) reqs[i] = MPI_REQUEST_NULL;
    uint64_t ran = 0x9E3779B97F4A7C15ULL * (uint64_t)(rank + 1) | 1;

    const double start = MPI_Wtime();
    long errors = 0, phases = 0;
    for (;; ++phases) {
        const uint64_t applied0 = applied, generated0 = generated;
        done_from = 0;
        for (int p = 0; p < size; ++p)
            if (p != rank) post_receive(p);
        const double phase_end = MPI_Wtime() + PHASE_SECONDS;
        while (MPI_Wtime() < phase_end) {
            ran = generate_batch(ran);
            poll_requests();
        }
        /* Flush, say done to everyone, and serve receives until everyone said done. */
        for (int p = 0; p < size; ++p)
            if (p != rank) {
                if (bucket_len[p] > 0) send_bucket(p, TAG_UPDATES);
                send_bucket(p, TAG_DONE);
            }
        for (;;) {
            poll_requests();
            if (done_from < size - 1) continue;
            int busy = 0;
            for (int i = size; i < size + size * SLOTS; ++i) busy |= reqs[i] != MPI_REQUEST_NULL;
            if (!busy) break;
        }
        /* End of phase: every update generated was applied exactly once; stop? */
        uint64_t counts[3] = {generated - generated0, applied - applied0, 0}, global[3];
        if (rank == 0) counts[2] = MPI_Wtime() - start >= opt.seconds;
        MPI_Allreduce(counts, global, 3, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        if (global[0] != global[1]) ++errors;
        if (global[2]) break;
    }

    uint64_t table_xor = initial_xor, mine[2], all[2];
    for (uint64_t i = 0; i < LOCAL_SIZE; ++i) table_xor ^= table[i];
    mine[0] = table_xor;
    mine[1] = generated_xor;
    MPI_Reduce(mine, all, 2, MPI_UINT64_T, MPI_BXOR, 0, MPI_COMM_WORLD);
    long total_errors = 0;
    MPI_Reduce(&errors, &total_errors, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    int status = 0;
    if (rank == 0) {
        if (total_errors == 0 && all[0] == all[1]) {
            printf("OK %016llx\n", (unsigned long long)all[0]);
        } else {
            printf("FAIL table: %ld phases with lost updates, xor %016llx expected %016llx\n", total_errors,
                   (unsigned long long)all[0], (unsigned long long)all[1]);
            status = 1;
        }
        fflush(stdout);
    }
    free(table);
    MPI_Finalize();
    return status;
}
