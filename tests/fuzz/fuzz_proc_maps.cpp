// /proc/PID/maps (supervisor/discovery.h maps_name_mpi_library): mapped
// paths are the user's to choose.
#include "hang/watch/discovery.h"
#include "fuzz_common.h"

FUZZ_TEXT_TARGET(text) { jobsentry::maps_name_mpi_library(text); }
