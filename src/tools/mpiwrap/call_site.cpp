#include "tools/mpiwrap/call_site.h"

#include <execinfo.h>
#include <link.h>

#include <cstdint>
#include <cstring>

#include "tools/mpiwrap/fortran_libraries.h"

namespace jobsentry {
namespace {

// The executable segments of the MPI Fortran libraries loaded at the first
// call (they are linked with the program, so they are loaded by then).
struct FortranLibraries {
    struct Range {
        uintptr_t begin = 0, end = 0;
    };
    Range ranges[8];
    int count = 0;

    FortranLibraries() {
        dl_iterate_phdr(
            [](dl_phdr_info* info, size_t, void* self) {
                auto* libs = static_cast<FortranLibraries*>(self);
                const char* name = info->dlpi_name ? std::strrchr(info->dlpi_name, '/') : nullptr;
                name = name ? name + 1 : info->dlpi_name;
                if (!name || !is_fortran_mpi_library(name)) return 0;
                for (int i = 0; i < info->dlpi_phnum && libs->count < 8; ++i) {
                    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
                    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
                    const uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
                    libs->ranges[libs->count++] = {begin, begin + ph.p_memsz};
                }
                return 0;
            },
            this);
    }

    bool contain(const void* address) const {
        const auto a = reinterpret_cast<uintptr_t>(address);
        for (int i = 0; i < count; ++i)
            if (a >= ranges[i].begin && a < ranges[i].end) return true;
        return false;
    }
};

}  // namespace

const void* call_site(const void* return_address) noexcept {
    static const FortranLibraries libraries;
    if (!libraries.contain(return_address)) return return_address;
    // Rare (MPICH's mpi_f08 calls): unwind to the first frame above the library.
    void* frames[32];
    const int n = backtrace(frames, 32);
    int i = 0;
    while (i < n && !libraries.contain(frames[i])) ++i;
    while (i < n && libraries.contain(frames[i])) ++i;
    return i < n ? frames[i] : return_address;
}

}  // namespace jobsentry
