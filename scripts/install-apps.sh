#!/usr/bin/env bash
# Installs the five real, unmodified MPI applications from Debian 12 that
# tests/apps/launch.sh runs (LAMMPS, CP2K, NWChem, HPCC, Quantum ESPRESSO;
# all Open MPI builds).
# Idempotent: only missing packages are installed, so a second run costs a
# dpkg query. Measured on a fresh Debian 12 with openmpi-bin already present
# (scripts/install-deps.sh): about 20 s in total, ~115 MB downloaded,
# ~790 MB on disk. See tests/apps/README.md for the per-package figures.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib/apt-install.sh"  # install_missing

packages=(
  lammps lammps-examples   # lmp (liblammps0, MPI build); examples/melt/in.melt
  cp2k                     # cp2k.psmp; cp2k-data has the GTH basis sets/potentials
  nwchem-openmpi           # nwchem.openmpi; nwchem-data has the basis library
  hpcc                     # HPC Challenge; the example input in /usr/share/doc/hpcc/examples
  quantum-espresso         # pw.x
  quantum-espresso-data    # its pseudopotentials (a Recommends, which install_missing leaves out)
)

install_missing install-apps "${packages[@]}"
