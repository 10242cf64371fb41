// Which MPI library this module was compiled against, and whether the process
// runs another one. The module's wrappers take and pass MPI handles of the
// mpi.h it was built with (Open MPI: pointers; MPICH: integers); in a program
// of the other MPI they would hand MPI foreign handles. The module is built
// once per MPI (libjobsentry-rmacheck.so, libjobsentry-rmacheck-mpich.so) and
// rma-check preloads the program's; loaded into the other MPI's program (a
// wrong --mpi, an LD_PRELOAD by hand) it stays out of the way (every wrapper
// goes straight to PMPI) and says so.
#pragma once

#include <string>

namespace rmacheck {

const char* built_for_mpi();       // "Open MPI" or "MPICH"
const char* module_file_name();    // libjobsentry-rmacheck.so or libjobsentry-rmacheck-mpich.so
const char* foreign_mpi_flavor();  // the other MPI as rma-check's --mpi names it

// The file name of a loaded MPI library of another implementation than
// built_for_mpi() (e.g. "libmpich.so.12"), or "" when there is none.
std::string foreign_mpi_library();

}  // namespace rmacheck
