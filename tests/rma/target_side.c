/* Target-side twins of every synchronisation class (mode 1 watches allocated
 * window memory at the target; mode 2 sees every access): rank 0 accesses
 * rank 1's window element 3 with an RMA operation while rank 1 loads or
 * stores that element itself. argv[1]: "racy" (rank 1's access is not ordered
 * with the operation) or "fixed" (it is); argv[2], the class:
 *   fence     Put in a fence epoch vs a store inside it (fixed: after the closing fence)
 *   pscw      Put in an access epoch vs a store between Post and Wait (fixed: after Wait)
 *   lock      Get under an exclusive lock vs a store (fixed: the store before a barrier the Get follows)
 *   flush     Accumulate under lock_all, flushed, vs a load (fixed: the load after a barrier after the flush)
 *   barrier   Put under lock_all, not flushed before a barrier, vs a store after it (fixed: flushed first)
 *   sendrecv  Put under a lock, not completed before a send, vs a store after the receive (fixed: unlocked first)
 * Rank 1's access of element 3 is its first of the window since its last
 * synchronisation: the one mode 1 records for the page. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int racy, rank, *mem, value = 5, got;
static MPI_Win win;

static void fence(void) {
    MPI_Win_fence(0, win);
    if (rank == 0) MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the fence put */
    if (rank == 1 && racy) mem[3] = 9;                                  /* the fence store */
    MPI_Win_fence(0, win);
    if (rank == 1 && !racy) mem[3] = 9;
    MPI_Win_fence(0, win);
}

static void pscw(void) {
    MPI_Group world, peer;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int other = 1 - rank;
    MPI_Group_incl(world, 1, &other, &peer);
    if (rank == 1) {
        MPI_Win_post(peer, 0, win);
        if (racy) mem[3] = 9; /* the pscw store */
        MPI_Win_wait(win);
        if (!racy) mem[3] = 9;
    } else {
        MPI_Win_start(peer, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the pscw put */
        MPI_Win_complete(win);
    }
    MPI_Group_free(&peer);
    MPI_Group_free(&world);
}

static void lock(void) {
    if (rank == 1 && !racy) mem[3] = 9;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Get(&got, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the lock get */
        MPI_Win_unlock(1, win);
    }
    if (rank == 1 && racy) mem[3] = 9; /* the lock store */
    MPI_Barrier(MPI_COMM_WORLD);
}

static void flush(void) {
    int seen = 0;
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Accumulate(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, MPI_SUM, win); /* the flush accumulate */
        MPI_Win_flush(1, win);
    }
    if (rank == 1 && racy) seen = mem[3]; /* the flush load */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1 && !racy) seen = mem[3];
    MPI_Win_unlock_all(win);
    if (seen < 0) printf("%d\n", seen);
}

static void barrier(void) {
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the barrier put */
        if (!racy) MPI_Win_flush(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) mem[3] = 9; /* the barrier store */
    MPI_Win_unlock_all(win);
}

static void sendrecv(void) {
    int token = 1;
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win); /* the sendrecv put */
        if (!racy) MPI_Win_unlock(1, win);
        MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        if (racy) MPI_Win_unlock(1, win);
    } else {
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mem[3] = 9; /* the sendrecv store */
    }
}

int main(int argc, char** argv) {
    racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    const char* kind = argc > 2 ? argv[2] : "";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    for (int i = 0; i < 8; ++i) mem[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (!strcmp(kind, "fence")) fence();
    else if (!strcmp(kind, "pscw")) pscw();
    else if (!strcmp(kind, "lock")) lock();
    else if (!strcmp(kind, "flush")) flush();
    else if (!strcmp(kind, "barrier")) barrier();
    else if (!strcmp(kind, "sendrecv")) sendrecv();
    else {
        if (rank == 0) fprintf(stderr, "usage: target_side racy|fixed fence|pscw|lock|flush|barrier|sendrecv\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
