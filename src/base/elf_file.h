// ELF files read with libelf: opened only when they are ELF (checked by their
// magic first: a word of a command may name a big data file), mapped rather
// than read; and their dynamic section's DT_NEEDED and run path. Shared by
// rma-check's choice of the MPI a program uses (tools/mpiwrap/program_mpi)
// and its check of GCC OpenMP programs (tools/rmacheck/openmp/elf_versions).
#pragma once

#include <functional>
#include <string>
#include <vector>

typedef struct Elf Elf;

namespace jobsentry {

// Calls read(elf) on path when it is a readable ELF file; false (read not called) otherwise.
bool with_elf_file(const std::string& path, const std::function<void(Elf*)>& read);

struct ElfDynamic {
    std::vector<std::string> needed;  // DT_NEEDED, in order
    std::string runpath;              // DT_RUNPATH, else DT_RPATH (':'-separated, $ORIGIN unexpanded)
};
ElfDynamic read_elf_dynamic(Elf* elf);

}  // namespace jobsentry
