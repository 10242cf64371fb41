! ckpt_fortran: jobsentry_ckpt.h from Fortran through bind(C). 40 iterations
! of about 10 ms; with a 50 ms fallback period the library should say
! "checkpoint" several times, and every rank must get the same answers.
! Prints "fortran mode M checkpoints MIN MAX" (rank 0). tests/mpi/ckpt_fortran.sh.
program ckpt_fortran
  use, intrinsic :: iso_c_binding
  use mpi
  implicit none
  interface
    integer(c_int) function jobsentry_ckpt_init(period) bind(C, name="jobsentry_ckpt_init")
      import :: c_int, c_double
      real(c_double), value :: period
    end function
    subroutine jobsentry_ckpt_iteration_end() bind(C, name="jobsentry_ckpt_iteration_end")
    end subroutine
    subroutine jobsentry_ckpt_begin() bind(C, name="jobsentry_ckpt_begin")
    end subroutine
    subroutine jobsentry_ckpt_end() bind(C, name="jobsentry_ckpt_end")
    end subroutine
    integer(c_int) function jobsentry_ckpt_should_checkpoint_f(comm) bind(C, name="jobsentry_ckpt_should_checkpoint_f")
      import :: c_int
      integer(c_int), value :: comm
    end function
  end interface
  integer :: ierr, rank, i, mode, ckpts, lo, hi
  double precision :: t0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  mode = jobsentry_ckpt_init(0.05d0)
  ckpts = 0
  do i = 1, 40
    t0 = MPI_Wtime()
    do while (MPI_Wtime() - t0 < 0.01d0)
    end do
    call jobsentry_ckpt_iteration_end()
    if (jobsentry_ckpt_should_checkpoint_f(MPI_COMM_WORLD) /= 0) then
      call jobsentry_ckpt_begin()
      ckpts = ckpts + 1
      call jobsentry_ckpt_end()
    end if
  end do
  call MPI_Allreduce(ckpts, lo, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(ckpts, hi, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(A,I0,A,I0,A,I0)', 'fortran mode ', mode, ' checkpoints ', lo, ' ', hi
  call MPI_Finalize(ierr)
end program ckpt_fortran
