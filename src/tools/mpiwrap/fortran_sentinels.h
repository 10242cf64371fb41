// Fortran's MPI_BOTTOM and MPI_IN_PLACE are not C's: each MPI marks them with
// a variable of its own Fortran library, whose address the Fortran caller
// passes as the buffer. The generated Fortran bindings (gen_wrappers.py) turn
// such a buffer into C's constant before the C body sees it; any other buffer
// is passed on as it is.
//   Open MPI: the addresses of mpi_fortran_bottom_ and mpi_fortran_in_place_ (libmpi);
//   MPICH:    the addresses held in MPIR_F_MPI_BOTTOM and MPIR_F_MPI_IN_PLACE (libmpichfort).
#pragma once

namespace jobsentry {

const void* fortran_buffer(const void* buffer) noexcept;
void* fortran_buffer(void* buffer) noexcept;

}  // namespace jobsentry
