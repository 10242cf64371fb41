#include "tools/mpiwrap/fortran_sentinels.h"

#include <dlfcn.h>
#include <mpi.h>

namespace jobsentry {
namespace {

struct Sentinels {
    const void* ompi_bottom = dlsym(RTLD_DEFAULT, "mpi_fortran_bottom_");
    const void* ompi_in_place = dlsym(RTLD_DEFAULT, "mpi_fortran_in_place_");
    // MPICH stores the addresses once its Fortran library has initialised: read at each call.
    void* const* mpich_bottom = static_cast<void* const*>(dlsym(RTLD_DEFAULT, "MPIR_F_MPI_BOTTOM"));
    void* const* mpich_in_place = static_cast<void* const*>(dlsym(RTLD_DEFAULT, "MPIR_F_MPI_IN_PLACE"));
};

const Sentinels& sentinels() {
    static const Sentinels found;
    return found;
}

}  // namespace

const void* fortran_buffer(const void* buffer) noexcept {
    const Sentinels& s = sentinels();
    if (buffer == nullptr) return buffer;
    if (buffer == s.ompi_bottom || (s.mpich_bottom && buffer == *s.mpich_bottom)) return MPI_BOTTOM;
    if (buffer == s.ompi_in_place || (s.mpich_in_place && buffer == *s.mpich_in_place)) return MPI_IN_PLACE;
    return buffer;
}

void* fortran_buffer(void* buffer) noexcept {
    return const_cast<void*>(fortran_buffer(static_cast<const void*>(buffer)));
}

}  // namespace jobsentry
