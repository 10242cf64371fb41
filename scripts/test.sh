#!/usr/bin/env bash
# Installs, builds and runs every test: labels unit (pure logic), cli
# (command-line errors and small runs), mpi (real mpirun jobs: jobsentry watch,
# rma-check, the checkpoint library), noise (the probe against injected noise)
# and slurm (the project's one-node cluster, real sbatch/srun jobs with
# jobsentry.so; root only). About 30 minutes.
# Extra arguments go to ctest, e.g. `bash scripts/test.sh -L unit`.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bash "$top/scripts/build.sh"
bash "$top/scripts/install-apps.sh"   # the real MPI applications of the mpi and slurm tests (tests/apps)
cd "$top/build"
ctest --output-on-failure --timeout 600 "$@"
