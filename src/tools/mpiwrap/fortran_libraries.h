// The MPI libraries' Fortran bindings, by the start of their file names:
// Open MPI's (include 'mpif.h', use mpi_f08, use mpi) and MPICH's. Named by
// rma-check's and trace's commands (a program linked with one, program_mpi.h)
// and by the preloaded modules (a call site inside one, call_site.h).
#pragma once

#include <cstring>

namespace jobsentry {

inline constexpr const char* kFortranMpiLibraries[] = {"libmpi_mpifh.so", "libmpi_usempif08.so",
                                                       "libmpi_usempi_ignore_tkr.so", "libmpifort.so",
                                                       "libmpichfort.so"};

// Whether a library's file name (no directory) is one of them.
inline bool is_fortran_mpi_library(const char* name) {
    for (const char* prefix : kFortranMpiLibraries)
        if (std::strncmp(name, prefix, std::strlen(prefix)) == 0) return true;
    return false;
}

}  // namespace jobsentry
