/* The price of mode 1's page protection on this machine: 100,000 pairs of
 * mprotect (two heap pages to PROT_NONE and back, as a wrapper's entry and
 * exit do), and madvise for comparison. Mode 1 pays one pair per MPI call
 * while an origin buffer is pending (docs/rmacheck.md).
 *   cc -O2 -o /tmp/mprotect_cost bench/rma/mprotect_cost.c && /tmp/mprotect_cost */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
    const int n = 100000;
    char* p = aligned_alloc(4096, 1 << 20);
    for (int i = 0; i < 1 << 20; i += 4096) p[i] = 1;
    double t = now();
    for (int i = 0; i < n; i++) {
        mprotect(p + 8192, 8192, PROT_NONE);
        mprotect(p + 8192, 8192, PROT_READ | PROT_WRITE);
    }
    printf("mprotect pair (2 pages): %.2f us\n", (now() - t) / n * 1e6);
    t = now();
    for (int i = 0; i < n; i++) madvise(p + 8192, 8192, MADV_DONTDUMP);
    printf("madvise (2 pages): %.2f us\n", (now() - t) / n * 1e6);
    free(p);
    return 0;
}
