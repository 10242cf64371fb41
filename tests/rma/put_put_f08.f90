! put_put_f.f90 through `use mpi_f08` (gfortran): derived-type handles, an
! absent ierror on most calls (optional in mpi_f08), MPI_IN_PLACE and a
! request array with MPI_STATUSES_IGNORE, and one MPI_Wait with a status
! whose source is checked. "racy": ranks 0 and 2 Put to the same element of
! rank 1's window under shared locks in one barrier interval; "fixed": each
! origin its own.
program put_put_f08
  use mpi_f08
  implicit none
  integer :: rank, ierr, value, disp, total
  integer :: buf(8), sendv, recvv
  integer(kind=MPI_ADDRESS_KIND) :: winsize, target
  type(MPI_Win) :: win
  type(MPI_Request) :: reqs(2), req
  type(MPI_Status) :: status
  character(len=8) :: variant
  logical :: racy
  call get_command_argument(1, variant)
  racy = variant == 'racy'
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  buf = 0
  winsize = 8 * 4
  call MPI_Win_create(buf, winsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  value = rank
  disp = 5
  if (.not. racy) disp = 5 + rank / 2
  target = disp
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0 .or. rank == 2) then
    call MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win)
    call MPI_Put(value, 1, MPI_INTEGER, 1, target, 1, MPI_INTEGER, win)
    call MPI_Win_unlock(1, win)
  end if
  call MPI_Barrier(MPI_COMM_WORLD)
  total = rank
  call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  sendv = rank
  call MPI_Irecv(recvv, 1, MPI_INTEGER, mod(rank + 2, 3), 7, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sendv, 1, MPI_INTEGER, mod(rank + 1, 3), 7, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  call MPI_Irecv(recvv, 1, MPI_INTEGER, mod(rank + 2, 3), 8, MPI_COMM_WORLD, req)
  call MPI_Send(sendv, 1, MPI_INTEGER, mod(rank + 1, 3), 8, MPI_COMM_WORLD)
  call MPI_Wait(req, status, ierr)
  call MPI_Win_free(win)
  if (total /= 3 .or. recvv /= mod(rank + 2, 3) .or. status%MPI_SOURCE /= mod(rank + 2, 3) .or. &
      ierr /= MPI_SUCCESS) then
    print *, 'wrong results: total', total, 'received', recvv, 'from', status%MPI_SOURCE
    call MPI_Abort(MPI_COMM_WORLD, 3)
  end if
  call MPI_Finalize()
end program put_put_f08
