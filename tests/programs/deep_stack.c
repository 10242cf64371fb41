/* A stack deeper than the sampler's first copy of it (256 KB): 40 nested calls
 * of 32 KB frames, then asleep at the bottom. tests/mpi/detach.sh samples it:
 * the first unwinds end at the copy's end (never reading the running stack
 * beyond it), later ones, with a larger copy, reach main. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop;  /* never set: the program sleeps until killed */

__attribute__((noinline)) static int sleep_at_bottom(void) {
    printf("bottom\n");
    fflush(stdout);
    while (!stop) pause();
    return 0;
}

__attribute__((noinline)) static int descend(int depth) {
    volatile char frame[32 * 1024];
    memset((char*)frame, depth, sizeof frame);
    if (depth == 0) return sleep_at_bottom();
    return descend(depth - 1) + frame[depth];
}

int main(void) { return descend(40); }
