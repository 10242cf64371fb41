// Running a command with one of jobsentry's PMPI modules preloaded into its
// ranks (rma-check, trace): which module fits the program's MPI (--mpi
// auto|openmpi|mpich), where it is, and the run itself with SIGTERM/SIGINT
// passed on, so that what the ranks wrote can still be read afterwards.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tools/mpiwrap/program_mpi.h"

namespace jobsentry {

// --mpi WORD (already checked): auto reads the command's files and says on stderr what it found
// ("WHO: DOING an MPICH program (...)").
MpiFlavor choose_mpi(const std::string& word, const std::vector<std::string>& command, const std::string& who,
                     const std::string& doing);

// The module: $env_var, else libNAME.so (or libNAME-mpich.so for MPICH) beside jobsentry or in
// ../lib (installed and build trees alike); "" after an error on stderr naming the file and variable.
std::string find_module(MpiFlavor mpi, const std::string& name, const char* env_var, const std::string& who);

// Creates the directory the ranks write to and removes its old files of that extension
// (".jsrma"); its absolute path, or "" after an error on stderr.
std::string prepare_trace_dir(const std::string& dir, const char* extension, const std::string& who);

// Runs the command with LD_PRELOAD=module and the environment settings; returns its shell status,
// or nothing when it could not start (after an error on stderr).
std::optional<int> run_preloaded(const std::vector<std::string>& command, const std::string& module,
                  const std::vector<std::pair<std::string, std::string>>& environment, const std::string& who);

}  // namespace jobsentry
