// Which rmacheck module a command needs (tools/mpiwrap/program_mpi.h): the rules on
// DT_NEEDED names and launcher names.
#include "catch_compat.hpp"

#include "tools/mpiwrap/program_mpi.h"

using jobsentry::MpiFlavor;

TEST_CASE("an executable's MPI library names its MPI") {
    using jobsentry::mpi_of_needed;
    CHECK(mpi_of_needed({"libc.so.6", "libmpi.so.40"}) == MpiFlavor::open_mpi);     // Open MPI 4.1 and 5.0
    CHECK(mpi_of_needed({"libmpich.so.12", "libc.so.6"}) == MpiFlavor::mpich);
    CHECK(mpi_of_needed({"libmpi.so.12"}) == MpiFlavor::mpich);                     // MPICH's libmpi alias
    CHECK_FALSE(mpi_of_needed({"libslurm.so.38", "libc.so.6"}).has_value());       // srun
    CHECK_FALSE(mpi_of_needed({"libopen-rte.so.40", "libopen-pal.so.40"}).has_value());  // orterun is a launcher
    CHECK_FALSE(mpi_of_needed({}).has_value());
}

TEST_CASE("a launcher's file name names its MPI, a generic name does not") {
    using jobsentry::mpi_of_launcher;
    CHECK(mpi_of_launcher("mpiexec.hydra") == MpiFlavor::mpich);
    CHECK(mpi_of_launcher("mpiexec.mpich") == MpiFlavor::mpich);
    CHECK(mpi_of_launcher("orterun") == MpiFlavor::open_mpi);
    CHECK(mpi_of_launcher("prterun") == MpiFlavor::open_mpi);
    CHECK_FALSE(mpi_of_launcher("mpirun").has_value());  // an alternatives link: its target decides
    CHECK_FALSE(mpi_of_launcher("srun").has_value());
}

TEST_CASE("the Fortran bindings of Open MPI and MPICH are named; a C program has none") {
    using jobsentry::fortran_mpi_of_needed;
    CHECK(fortran_mpi_of_needed({"libmpi_mpifh.so.40", "libmpi.so.40", "libc.so.6"}) == "libmpi_mpifh.so.40");
    CHECK(fortran_mpi_of_needed({"libmpi_usempif08.so.40", "libmpi.so.40"}) == "libmpi_usempif08.so.40");
    CHECK(fortran_mpi_of_needed({"libmpichfort.so.12", "libmpich.so.12"}) == "libmpichfort.so.12");
    CHECK(fortran_mpi_of_needed({"libmpi.so.40", "libgomp.so.1", "libc.so.6"}).empty());
    // CP2K names only the bindings (which need libmpi.so.40): still Open MPI's program.
    CHECK(jobsentry::mpi_of_needed({"libmpi_mpifh.so.40", "libscalapack-openmpi.so.2.2"}) == MpiFlavor::open_mpi);
    CHECK(jobsentry::mpi_of_needed({"libmpichfort.so.12"}) == MpiFlavor::mpich);
}

TEST_CASE("--mpi words") {
    CHECK(jobsentry::parse_mpi_flavor("mpich") == MpiFlavor::mpich);
    CHECK(jobsentry::parse_mpi_flavor("openmpi") == MpiFlavor::open_mpi);
    CHECK_FALSE(jobsentry::parse_mpi_flavor("MPICH").has_value());
    CHECK(std::string(jobsentry::mpi_flavor_name(MpiFlavor::mpich)) == "mpich");
}
