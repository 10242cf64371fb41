#!/usr/bin/env bash
# Installs the five real, unmodified MPI applications from Debian 12 that
# tests/apps/launch.sh runs (LAMMPS, CP2K, NWChem, HPCC, Quantum ESPRESSO;
# all Open MPI builds).
# Idempotent: only missing packages are installed, so a second run costs a
# dpkg query. Measured on a fresh Debian 12 with openmpi-bin already present
# (scripts/install-deps.sh): about 20 s in total, ~115 MB downloaded,
# ~790 MB on disk. See tests/apps/README.md for the per-package figures.
#   install-apps.sh [--mpich]   --mpich: also NWChem's MPICH build (nwchem-mpich, 13 MB;
#                               bench/ runs it under Hydra with APPS_MPI=mpich; no test needs it)
set -euo pipefail
case ${1:-} in
  "" | --mpich) ;;
  *) echo "usage: install-apps.sh [--mpich] (not '$1')" >&2; exit 2 ;;
esac
. "$(dirname "${BASH_SOURCE[0]}")/lib/apt-install.sh"  # install_missing

packages=(
  lammps lammps-examples   # lmp (liblammps0, MPI build); examples/melt/in.melt
  cp2k                     # cp2k.psmp; cp2k-data has the GTH basis sets/potentials
  nwchem-openmpi           # nwchem.openmpi; nwchem-data has the basis library
  hpcc                     # HPC Challenge; the example input in /usr/share/doc/hpcc/examples
  quantum-espresso         # pw.x
  quantum-espresso-data    # its pseudopotentials (a Recommends, which install_missing leaves out)
)

[ "${1:-}" = --mpich ] && packages+=(nwchem-mpich)  # nwchem.mpich, beside nwchem.openmpi
install_missing install-apps "${packages[@]}"

# OpenBLAS's OpenMP build, unpacked beside the system (not installed: installing it would make it every
# program's libblas.so.3 through the alternatives system, and every application here runs the
# reference BLAS). tests/rma/app_hybrid.sh and bench/rma_hybrid_app.sh put it first on LD_LIBRARY_PATH
# to run NWChem as an MPI + OpenMP code (its BLAS calls in GCC-built OpenMP threads, libgomp).
OPENBLAS_OPENMP_DIR=${OPENBLAS_OPENMP_DIR:-/var/cache/jobsentry/openblas-openmp}
openblas_lib=$OPENBLAS_OPENMP_DIR/usr/lib/x86_64-linux-gnu/openblas-openmp
if [ ! -e "$openblas_lib/libblas.so.3" ]; then
  [ "$(id -u)" -eq 0 ] || { echo "install-apps: $openblas_lib missing; run as root" >&2; exit 1; }
  work=$(mktemp -d)
  chmod 755 "$work"  # apt downloads as its own user
  (cd "$work" && apt-get download -qq libopenblas0-openmp) ||
    { apt-get update -qq && (cd "$work" && apt-get download -qq libopenblas0-openmp); }
  mkdir -p "$OPENBLAS_OPENMP_DIR"
  dpkg-deb -x "$work"/libopenblas0-openmp_*.deb "$OPENBLAS_OPENMP_DIR"
  rm -rf "$work"
  [ -e "$openblas_lib/libblas.so.3" ] || { echo "install-apps: libopenblas0-openmp has no libblas.so.3" >&2; exit 1; }
  echo "install-apps: OpenBLAS (OpenMP build) unpacked in $openblas_lib"
fi
