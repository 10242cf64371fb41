/* trace_calls: every call jobsentry trace records, once or a few times, with
 * 3 or more ranks, for tests/mpi/trace_goal.sh: the traced schedule must
 * simulate without deadlock, so that every message and collective found its
 * match. Covers MPI_ANY_SOURCE/ANY_TAG, MPI_PROC_NULL, a split communicator
 * (collectives and point-to-point with world ranks that differ from its
 * ranks) freed while a receive on it is pending, and each Wait/Test form.
 * Prints "OK" from rank 0. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int a[64] = {0}, b[64] = {0}, c[256] = {0}, flag = 0, index = 0, count = 0, indices[2];
    MPI_Request r[2];
    MPI_Status st[2];

    /* Blocking point to point around the ring; rank 0 receives from any source with any tag. */
    if (rank == 0) {
        MPI_Send(a, 4, MPI_INT, right, 1, MPI_COMM_WORLD);
        MPI_Recv(b, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(b, 4, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ssend(a, 4, MPI_INT, right, 1, MPI_COMM_WORLD);
    }
    MPI_Sendrecv(a, 8, MPI_INT, right, 2, b, 8, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(a, 8, MPI_INT, MPI_PROC_NULL, 3, b, 8, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st[0]);

    /* Each completion form once. */
    MPI_Irecv(b, 2, MPI_INT, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(a, 2, MPI_INT, right, 4, MPI_COMM_WORLD, &r[1]);
    MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    do MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE); while (!flag);
    MPI_Irecv(b, 2, MPI_INT, left, 5, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(a, 2, MPI_INT, right, 5, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    MPI_Irecv(b, 2, MPI_INT, left, 6, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(a, 2, MPI_INT, right, 6, MPI_COMM_WORLD, &r[1]);
    MPI_Waitany(2, r, &index, MPI_STATUS_IGNORE);
    MPI_Waitsome(2, r, &count, indices, st);
    if (count == 1) MPI_Waitany(2, r, &index, MPI_STATUS_IGNORE);
    MPI_Irecv(b, 2, MPI_INT, left, 7, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(a, 2, MPI_INT, right, 7, MPI_COMM_WORLD, &r[1]);
    do MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE); while (!flag);
    MPI_Irecv(b, 2, MPI_INT, left, 8, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(a, 2, MPI_INT, right, 8, MPI_COMM_WORLD, &r[1]);
    do MPI_Testany(2, r, &index, &flag, MPI_STATUS_IGNORE); while (!flag);
    for (int done = 1; done < 2;) {
        MPI_Testsome(2, r, &count, indices, MPI_STATUSES_IGNORE);
        if (count != MPI_UNDEFINED) done += count;
    }

    /* The eight collectives on MPI_COMM_WORLD. */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(a, 16, MPI_INT, 1, MPI_COMM_WORLD);
    MPI_Reduce(a, b, 16, MPI_INT, MPI_SUM, 2 % size, MPI_COMM_WORLD);
    MPI_Allreduce(a, b, 16, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Gather(a, 4, MPI_INT, c, 4, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Scatter(c, 4, MPI_INT, a, 4, MPI_INT, 1, MPI_COMM_WORLD);
    MPI_Allgather(a, 4, MPI_INT, c, 4, MPI_INT, MPI_COMM_WORLD);
    MPI_Alltoall(c, 4, MPI_INT, c + 128, 4, MPI_INT, MPI_COMM_WORLD);

    /* A communicator in reverse order: its rank 0 is world rank size-1. */
    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
    int rrank;
    MPI_Comm_rank(rev, &rrank);
    MPI_Bcast(a, 8, MPI_INT, 0, rev);
    MPI_Allreduce(a, b, 8, MPI_INT, MPI_SUM, rev);
    MPI_Irecv(b, 2, MPI_INT, (rrank + 1) % size, 9, rev, &r[0]);
    MPI_Send(a, 2, MPI_INT, (rrank + size - 1) % size, 9, rev);
    MPI_Comm_free(&rev); /* the receive completes after the free */
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("OK\n");
    MPI_Finalize();
    return 0;
}
