#include "tools/rmacheck/preload/mpi_identity.h"

#include <link.h>
#include <mpi.h>

#include <cstring>

namespace rmacheck {

namespace {

#if defined(OPEN_MPI)
constexpr const char* kBuiltFor = "Open MPI";
constexpr const char* kModule = "libjobsentry-rmacheck.so";
constexpr const char* kForeignFlavor = "mpich";
constexpr const char* kForeignPrefixes[] = {"libmpich.so", "libmpi.so.12"};  // MPICH, and its libmpi alias
#elif defined(MPICH_VERSION)
constexpr const char* kBuiltFor = "MPICH";
constexpr const char* kModule = "libjobsentry-rmacheck-mpich.so";
constexpr const char* kForeignFlavor = "openmpi";
constexpr const char* kForeignPrefixes[] = {"libmpi.so.40", "libopen-pal.so"};  // Open MPI 4 and 5
#else
#error "rmacheck is built against Open MPI or MPICH"
#endif

int find_foreign(struct dl_phdr_info* info, size_t, void* data) {
    const char* path = info->dlpi_name;
    if (!path || !*path) return 0;
    const char* slash = std::strrchr(path, '/');
    const char* base = slash ? slash + 1 : path;
    for (const char* prefix : kForeignPrefixes)
        if (std::strncmp(base, prefix, std::strlen(prefix)) == 0) {
            *static_cast<std::string*>(data) = base;
            return 1;
        }
    return 0;
}

}  // namespace

const char* built_for_mpi() { return kBuiltFor; }
const char* module_file_name() { return kModule; }
const char* foreign_mpi_flavor() { return kForeignFlavor; }

std::string foreign_mpi_library() {
    std::string found;
    dl_iterate_phdr(find_foreign, &found);
    return found;
}

}  // namespace rmacheck
