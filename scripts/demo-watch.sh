#!/usr/bin/env bash
# The demo without Slurm: installs, builds, then runs a 4-rank MPI program in which
# rank 2 falls asleep forever after 12 s, under `jobsentry watch`. jobsentry
# detects the hang, names rank 2, prints and writes the report, and ends the
# job (exit status 3).
#   bash scripts/demo-watch.sh               install, build into build/, run
#   bash scripts/demo-watch.sh --built DIR   run with the build in DIR (the demo_watch test)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --built ]; then
  [ -d "${2:-}" ] || { echo "demo-watch: --built needs a build directory" >&2; exit 2; }
  build=$(cd "$2" && pwd)
else
  bash "$top/scripts/build.sh"
  build=$top/build
fi
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_btl=self,vader
out=${DEMO_DIR:-$top/demo-output}
mkdir -p "$out"
echo "== jobsentry watch -- mpirun -np 4 hangprog --hang sleep --hang-rank 2 --hang-after 12"
status=0
"$build/bin/jobsentry" watch --report "$out/report.json" -- \
  mpirun --oversubscribe -np 4 "$build/tests/programs/hangprog" \
  --seconds 300 --hang sleep --hang-rank 2 --hang-after 12 || status=$?
echo "== jobsentry exited with status $status (3: hang detected and the job ended)"
echo "== report: $out/report.json and $out/report.txt"
[ "$status" -eq 3 ]
