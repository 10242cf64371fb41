#include "tools/mpiwrap/program_mpi.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "base/elf_file.h"
#include "tools/mpiwrap/fortran_libraries.h"

namespace jobsentry {

const char* mpi_flavor_name(MpiFlavor f) { return f == MpiFlavor::mpich ? "mpich" : "openmpi"; }

std::optional<MpiFlavor> parse_mpi_flavor(const std::string& word) {
    if (word == "openmpi") return MpiFlavor::open_mpi;
    if (word == "mpich") return MpiFlavor::mpich;
    return std::nullopt;
}

namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

std::optional<MpiFlavor> mpi_of_needed(const std::vector<std::string>& needed) {
    for (const auto& lib : needed) {
        // MPICH's library and its libmpi.so.12 alias; Open MPI 4 and 5 are both libmpi.so.40.
        if (starts_with(lib, "libmpich.so") || starts_with(lib, "libmpi.so.12")) return MpiFlavor::mpich;
        if (starts_with(lib, "libmpi.so.40")) return MpiFlavor::open_mpi;
        // A Fortran program may name only the bindings (CP2K: libmpi_mpifh.so.40, which needs libmpi.so.40).
        if (starts_with(lib, "libmpichfort.so") || starts_with(lib, "libmpifort.so.12")) return MpiFlavor::mpich;
        if (starts_with(lib, "libmpi_mpifh.so.40") || starts_with(lib, "libmpi_usempif08.so.40") ||
            starts_with(lib, "libmpi_usempi_ignore_tkr.so.40"))
            return MpiFlavor::open_mpi;
    }
    return std::nullopt;
}

std::optional<MpiFlavor> mpi_of_launcher(const std::string& name) {
    for (const char* m : {"mpiexec.mpich", "mpirun.mpich", "mpiexec.hydra", "mpiexec.gforker"})
        if (name == m) return MpiFlavor::mpich;
    for (const char* o : {"mpirun.openmpi", "mpiexec.openmpi", "orterun", "prterun", "prun"})
        if (name == o) return MpiFlavor::open_mpi;
    return std::nullopt;
}

namespace {

// The DT_NEEDED names of an ELF file; empty when it is not one (or unreadable).
std::vector<std::string> needed_of(const std::string& path) {
    std::vector<std::string> out;
    with_elf_file(path, [&](Elf* elf) { out = read_elf_dynamic(elf).needed; });
    return out;
}

}  // namespace

// A word of the command as a regular file: the first word through PATH, the others as paths.
std::string command_word_file(const std::string& word, bool first) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (word.empty() || word[0] == '-') return "";
    if (word.find('/') != std::string::npos) return fs::is_regular_file(word, ec) ? word : "";
    // A later word names a file in the working directory, or a program the launcher finds on PATH
    // (`mpirun -np 4 lmp -in in.lj`): mpirun looks its program up there too.
    if (!first && fs::is_regular_file(word, ec)) return word;
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        std::string candidate = (dir.empty() ? "." : dir) + "/" + word;
        if (fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return "";
}

ProgramMpi detect_program_mpi(const std::vector<std::string>& command) {
    namespace fs = std::filesystem;
    std::optional<MpiFlavor> launcher;
    std::string launcher_why;
    for (size_t i = 0; i < command.size(); ++i) {
        std::string file = command_word_file(command[i], i == 0);
        if (file.empty()) continue;
        if (auto f = mpi_of_needed(needed_of(file)))
            return {f, file + " is linked with " + (*f == MpiFlavor::mpich ? "MPICH" : "Open MPI")};
        std::error_code ec;
        fs::path real = fs::canonical(file, ec);  // mpirun -> /etc/alternatives/mpirun -> mpirun.openmpi
        for (const fs::path& p : {fs::path(file), ec ? fs::path() : real})
            if (!launcher)
                if (auto f = mpi_of_launcher(p.filename().string())) {
                    launcher = f;
                    launcher_why = command[i] + " is " + p.string() + ", the launcher of " +
                                   (*f == MpiFlavor::mpich ? "MPICH" : "Open MPI");
                }
    }
    return {launcher, launcher_why};
}

std::string fortran_mpi_of_needed(const std::vector<std::string>& needed) {
    for (const auto& lib : needed)
        if (is_fortran_mpi_library(lib.c_str())) return lib;
    return "";
}

std::string detect_fortran_mpi(const std::vector<std::string>& command) {
    for (size_t i = 0; i < command.size(); ++i) {
        std::string file = command_word_file(command[i], i == 0);
        if (file.empty()) continue;
        const std::vector<std::string> needed = needed_of(file);
        const std::string fortran = fortran_mpi_of_needed(needed);
        if (!fortran.empty()) return file + " is linked with the MPI library's Fortran bindings (" + fortran + ")";
        if (mpi_of_needed(needed)) return "";
    }
    return "";
}

}  // namespace jobsentry
