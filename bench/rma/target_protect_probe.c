#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
/* target_protect_probe create|allocate: can mode 1 of rma-check protect window
 * memory at the target? Rank 1 mprotects its window page while it computes
 * outside MPI for 1 s; rank 0 Puts under a shared lock meanwhile. Prints the
 * value rank 1 finds afterwards (5: the Put arrived). Findings and the decision:
 * docs/rmacheck.md, "Target side in mode 1, weighed".
 *   mpicc -o probe bench/rma/target_protect_probe.c
 *   mpirun -np 2 ./probe create; mpirun -np 2 ./probe allocate
 *   mpirun --mca btl_vader_single_copy_mechanism none -np 2 ./probe create */
int main(int argc, char** argv) {
    int rank, *mem, value = 5;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long pg = sysconf(_SC_PAGESIZE);
    if (!strcmp(argv[1], "create")) {
        mem = aligned_alloc(pg, pg);
        MPI_Win_create(mem, pg, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else {
        MPI_Win_allocate(pg, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    }
    memset(mem, 0, 64);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        void* page = (void*)((unsigned long)mem & ~(pg - 1));
        if (mprotect(page, pg, PROT_NONE)) perror("mprotect");
        double t0 = MPI_Wtime(); while (MPI_Wtime() - t0 < 1.0) ;
        mprotect(page, pg, PROT_READ | PROT_WRITE);
    } else {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, 3, 1, MPI_INT, win);
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) printf("%s: mem[3] = %d\n", argv[1], mem[3]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
