/* dht: lookups in a distributed hash table with MPI_Get (passive target,
 * lock_all once, flush_all per batch), as in a distributed hash table or an
 * irregular gather. Each rank owns TABLE entries {key, value} (4 MiB), filled
 * before the loop and only read afterwards. An iteration looks up BATCH
 * pseudo-random global keys: one Get of the 16-byte entry from its owner into
 * a result array (heap, 8 KiB), MPI_Win_flush_all, then checks every entry
 * (a wrong value aborts) and mixes it into a checksum with some arithmetic
 * (WORK dependent divisions, about 1.5 us per entry: a Get costs about 0.1 us
 * natively, and without compute the 5-second run would make 50 million Gets).
 * Usage: rma_dht ITERATIONS */
#include <stdint.h>
#include "kernel.h"

#define TABLE 262144 /* entries per rank */
#define BATCH 512    /* lookups per iteration */
#define WORK 200     /* dependent divisions per entry looked up (about 1.5 us) */

typedef struct {
    int64_t key, value;
} entry;

static int64_t value_of(int64_t key) { return key * 2654435761LL ^ (key >> 7); }

int main(int argc, char** argv) {
    int rank, size;
    long iters = kernel_init(&argc, &argv, MPI_THREAD_SINGLE, 1000, &rank, &size);
    entry* table;
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)TABLE * sizeof(entry), sizeof(entry), MPI_INFO_NULL, MPI_COMM_WORLD, &table, &win);
    for (int64_t i = 0; i < TABLE; ++i) {
        table[i].key = (int64_t)rank * TABLE + i;
        table[i].value = value_of(table[i].key);
    }
    entry* got = malloc(BATCH * sizeof(entry));
    int64_t* want = malloc(BATCH * sizeof(int64_t));
    uint64_t seed = 0x9E3779B97F4A7C15ULL * (rank + 1);
    const int64_t keys = (int64_t)size * TABLE;
    double checksum = 0;
    kernel_begin(); /* its barrier orders the table's initial stores before every Get */
    MPI_Win_lock_all(0, win);
    for (long it = 0; it < iters; ++it) {
        for (int b = 0; b < BATCH; ++b) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            want[b] = (int64_t)(seed % (uint64_t)keys);
            MPI_Get(&got[b], 2, MPI_INT64_T, (int)(want[b] / TABLE), want[b] % TABLE, 2, MPI_INT64_T, win);
        }
        MPI_Win_flush_all(win);
        for (int b = 0; b < BATCH; ++b) {
            if (got[b].key != want[b] || got[b].value != value_of(want[b])) {
                fprintf(stderr, "rank %d: lookup of key %lld returned {%lld, %lld}\n", rank, (long long)want[b],
                        (long long)got[b].key, (long long)got[b].value);
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
            double h = (double)(got[b].value & 0xffff);
            for (int k = 0; k < WORK; ++k) h = h * 0.999 + 1.0 / (1.0 + h);
            checksum += h;
        }
    }
    MPI_Win_unlock_all(win);
    kernel_end("dht", iters, checksum);
    free(got);
    free(want);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
