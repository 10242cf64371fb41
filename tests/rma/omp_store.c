/* MPI + OpenMP, precise mode (built with jobsentry-mpicc -fopenmp): in one
 * fence epoch rank 0 Puts into rank 1's window while rank 1's OpenMP threads
 * store to the window in a parallel for. "racy": the parallel for runs inside
 * the epoch; "fixed": after the closing fence. In both, the report must say
 * that rank 1's stores came from 2 threads whose order among themselves was
 * not checked. */
#include <mpi.h>
#include <string.h>

static void store_all(int* mem) {
#pragma omp parallel for num_threads(2) schedule(static)
    for (int i = 2; i < 6; ++i) mem[i] = 9; /* the threads' store */
}

int main(int argc, char** argv) {
    int racy = argc > 1 && strcmp(argv[1], "racy") == 0;
    int rank, *mem, value = 5;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win);
    if (rank == 1 && racy) store_all(mem);
    MPI_Win_fence(0, win);
    if (rank == 1 && !racy) store_all(mem);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
