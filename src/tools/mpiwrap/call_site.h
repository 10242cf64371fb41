// The call site a generated C wrapper reports (gen_wrappers.py): its return
// address, unless that lies in an MPI's own Fortran library. MPICH's mpi_f08
// bindings (mpi_put_f08ts_ and the like, in libmpichfort) convert their
// arguments and call the C functions, so the C wrapper's caller is MPICH;
// the site is then the first caller outside that library: the Fortran line.
// A return address elsewhere costs two comparisons per library.
#pragma once

namespace jobsentry {

const void* call_site(const void* return_address) noexcept;

}  // namespace jobsentry
