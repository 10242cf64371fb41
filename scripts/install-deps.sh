#!/usr/bin/env bash
# Installs the Debian packages jobsentry needs to build and test (Debian 12;
# the build set also on Debian 13). Idempotent:
# only missing packages are installed, so a second run costs a dpkg query.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib/apt-install.sh"  # install_missing

# `build`: what building the tree and its packages needs (scripts/package.sh,
# also inside the Debian 13 root); `all` (default): and what the tests run.
build_packages=(
  build-essential cmake pkg-config dpkg-dev file
  catch2 libboost-dev libboost-program-options-dev nlohmann-json3-dev
  libunwind-dev libdw-dev libhwloc-dev
  libcapstone-dev  # the width of a load or store rma-check mode 1 caught by its fault (analysis/access_width)
  openmpi-bin libopenmpi-dev gfortran
  mpich libmpich-dev
  python3 libslurm-dev libmunge-dev
  clang
  llvm-dev  # the LLVM of clang, for jobsentry-mpicc's loop-summary pass plugin (rmacheck/loops/)
  libomp-dev  # clang's OpenMP runtime (LLVM libomp, with OMPT): `jobsentry-mpicc -fopenmp`
)
test_packages=(
  elfutils procps jq util-linux bc rt-tests strace
  graphviz
  slurm-wlm slurmctld slurmd slurmdbd munge mariadb-server mariadb-client
  passwd
  debootstrap
  bubblewrap  # ranks in a container of Debian 13's userland, watched from the host (tests/mpi/container_ranks.sh)
  libclang-rt-dev  # libFuzzer and the sanitizer runtimes (only recommended by clang): scripts/test-fuzz.sh
)
case "${1:-all}" in
  build) packages=("${build_packages[@]}") ;;
  all) packages=("${build_packages[@]}" "${test_packages[@]}") ;;
  *) echo "install-deps: '$1' is not a set; accepted: build, all" >&2; exit 2 ;;
esac

install_missing install-deps "${packages[@]}"
