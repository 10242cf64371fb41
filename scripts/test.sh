#!/usr/bin/env bash
# Installs, builds and runs every test: labels unit (pure logic, command-line
# errors), mpi (real mpirun jobs under jobsentry watch) and slurm (the
# project's one-node cluster, real sbatch/srun jobs with jobsentry.so; root
# only). About 15 minutes.
# Extra arguments go to ctest, e.g. `bash scripts/test.sh -L unit`.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bash "$top/scripts/build.sh"
cd "$top/build"
ctest --output-on-failure --timeout 600 "$@"
