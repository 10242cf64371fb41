/* Accumulate ordering (MPI-3.1 11.7.2): rank 0 adds to 4 doubles of rank 1's window with MPI_SUM,
 * then overwrites them with an MPI_REPLACE accumulate of doubles, both under lock_all with no flush
 * between them. The two are not atomic together (two ops), but accumulates of one basic type from one
 * origin to the same target bytes are applied in the order they were issued -- unless the window's
 * accumulate_ordering info says "none". (ARMCI-MPI replaces with MPI_BYTEs instead: two basic types,
 * which the ordering, "on a per-datatype granularity", does not cover: acc_float_int.c.)
 * "racy":  the window is made with accumulate_ordering=none: the two are concurrent.
 * "fixed": the window has MPI's default ordering (rar,raw,war,waw): ordered, race-free. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank;
    double add[4] = {1, 2, 3, 4}, set[4] = {0, 0, 0, 0};
    char* mem;
    MPI_Win win;
    MPI_Info info;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Info_create(&info);
    if (racy) MPI_Info_set(info, "accumulate_ordering", "none");
    MPI_Win_allocate(64, 1, info, MPI_COMM_WORLD, &mem, &win);
    MPI_Info_free(&info);
    memset(mem, 0, 64);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Accumulate(add, 4, MPI_DOUBLE, 1, 8, 4, MPI_DOUBLE, MPI_SUM, win); /* the sum */
        MPI_Win_flush_local(1, win);
        MPI_Accumulate(set, 4, MPI_DOUBLE, 1, 8, 4, MPI_DOUBLE, MPI_REPLACE, win); /* the replace */
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
