// Decides whether a stack is "inside MPI". Pure: works on names and paths only.
//
// A frame is MPI when its function is named MPI_*, PMPI_*, the Fortran forms
// mpi_*_ / pmpi_*_ (any case, one or two trailing underscores, and the
// mpi_f08 *_f08 forms), or when its PC lies in a mapping of an MPI library
// (Open MPI's libmpi*, libopen-pal, libopen-rte, its mca_* components, PMIx,
// MPICH's libmpi/libmpich). A stack is inside MPI when any frame is MPI.
// Frames without a name only count through their mapping, so an unnamed frame
// never turns an MPI stack into a user-code one, nor the other way round.
#pragma once

#include <string_view>
#include <vector>

#include "hang/sampler/frame.h"

namespace jobsentry {

bool is_mpi_function_name(std::string_view name);
// An MPI call that returns at once whatever happens (MPI_Test*, MPI_Iprobe,
// MPI_Improbe, MPI_Request_get_status, MPI_Win_test), in its C, profiling
// and Fortran forms, and Open MPI's Fortran glue (ompi_testany_f). A rank
// seen in one such call sample after sample is looping over it: it may be
// completing requests all along, so it is never evidence of a deadlock.
bool is_polling_mpi_call(std::string_view name);
bool is_mpi_library_path(std::string_view path);
bool stack_in_mpi(const std::vector<Frame>& frames);

}  // namespace jobsentry
