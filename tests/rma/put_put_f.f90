! Bug class 4 from Fortran (`use mpi`, gfortran): ranks 0 and 2 Put to the
! same element of rank 1's window under shared locks in one barrier
! interval. "racy": the same element; "fixed": each origin its own. Also
! an MPI_Allreduce with MPI_IN_PLACE and nonblocking requests, so that the
! Fortran bindings' sentinels and handle arrays are exercised.
program put_put_f
  use mpi
  implicit none
  integer :: rank, ierr, win, value, disp, total, i
  integer :: buf(8), reqs(2), sendv, recvv
  integer(kind=MPI_ADDRESS_KIND) :: winsize, target
  character(len=8) :: variant
  logical :: racy
  call get_command_argument(1, variant)
  racy = variant == 'racy'
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  buf = 0
  winsize = 8 * 4
  call MPI_Win_create(buf, winsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  value = rank
  disp = 5
  if (.not. racy) disp = 5 + rank / 2
  target = disp
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0 .or. rank == 2) then
    call MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win, ierr)
    call MPI_Put(value, 1, MPI_INTEGER, 1, target, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_unlock(1, win, ierr)
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  total = rank
  call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  sendv = rank
  call MPI_Irecv(recvv, 1, MPI_INTEGER, mod(rank + 2, 3), 7, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(sendv, 1, MPI_INTEGER, mod(rank + 1, 3), 7, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  call MPI_Win_free(win, ierr)
  if (total /= 3 .or. recvv /= mod(rank + 2, 3)) then
    print *, 'wrong results: total', total, 'received', recvv
    call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
  end if
  call MPI_Finalize(ierr)
end program put_put_f
