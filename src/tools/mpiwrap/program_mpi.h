// Which MPI a command's ranks will run, so that rma-check preloads the module
// built for it (a PMPI module is bound to one MPI's handles: Open MPI's are
// pointers, MPICH's integers). Read from the command before it starts: the
// first file among its words that is linked with an MPI library decides; else
// the launcher's name (mpiexec.mpich, mpiexec.hydra; mpirun.openmpi, prterun).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace jobsentry {

enum class MpiFlavor { open_mpi, mpich };

const char* mpi_flavor_name(MpiFlavor f);            // "openmpi" or "mpich", as --mpi takes them
std::optional<MpiFlavor> parse_mpi_flavor(const std::string& word);  // "openmpi", "mpich"

// Pure rules: an executable's DT_NEEDED names, a launcher's file name.
std::optional<MpiFlavor> mpi_of_needed(const std::vector<std::string>& needed);
std::optional<MpiFlavor> mpi_of_launcher(const std::string& basename);

// What a program's words say: `why` tells which file decided it and how.
struct ProgramMpi {
    std::optional<MpiFlavor> flavor;
    std::string why;
};
ProgramMpi detect_program_mpi(const std::vector<std::string>& command);

// The MPI library's Fortran bindings among an executable's DT_NEEDED names ("libmpi_mpifh.so.40"), or
// "". They call PMPI_ directly (Open MPI, MPICH), so a PMPI module's MPI_ wrappers alone never see the
// calls a program makes from Fortran; the modules' generated Fortran bindings (mpiwrap/gen_wrappers.py)
// take gfortran's names of `include 'mpif.h'` and `use mpi` (mpi_put_) and Open MPI's `use mpi_f08`
// (mpi_put_f08_); MPICH's mpi_f08 calls the C functions (mpiwrap/call_site.h).
std::string fortran_mpi_of_needed(const std::vector<std::string>& needed);
// The same of the command's first file linked with an MPI library: "PROGRAM is linked with LIB", or "".
std::string detect_fortran_mpi(const std::vector<std::string>& command);

// A word of a command as a regular file: a path as it is; the first word through PATH; a later word
// as a file of the working directory, else through PATH (the program mpirun runs); "" when none.
std::string command_word_file(const std::string& word, bool first);

}  // namespace jobsentry
