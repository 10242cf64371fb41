# Shared setup of the benchmark scripts: where the binaries are, Open MPI as
# root, a scratch directory. Benchmarks print markdown tables on stdout.
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
JOBSENTRY=$BUILD/bin/jobsentry
HANGPROG=$BUILD/tests/programs/hangprog
[ -x "$JOBSENTRY" ] && [ -x "$HANGPROG" ] || { echo "build first: bash scripts/build.sh" >&2; exit 1; }
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
SCRATCH=$(mktemp -d /tmp/jobsentry-bench.XXXXXX)
# Processes started here carry this tag; the exit trap ends only those.
export JOBSENTRY_BENCH_TAG=$SCRATCH
end_tagged() {
  local pid
  for pid in $(pgrep -x hangprog; pgrep -x mpirun; pgrep -x mpiexec.mpich); do
    grep -qz "^JOBSENTRY_BENCH_TAG=$SCRATCH\$" "/proc/$pid/environ" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
  done
  return 0
}
trap 'end_tagged; rm -rf "$SCRATCH"' EXIT

# The real applications' work sized from this machine's rates (as the tests do): once per boot.
calibrated_app_rates() {
  export JOBSENTRY_APP_RATES=${JOBSENTRY_APP_RATES:-$BUILD/app-rates.env}
  bash "$TOP/tests/apps/launch.sh" calibrate "$JOBSENTRY_APP_RATES" >&2
}

# stats FILE: "median p90 p99 min max count" of the numbers in FILE, one per line.
stats() {
  sort -g "$1" | awk '{v[NR]=$1} END {
    if (NR == 0) { print "- - - - - 0"; exit }
    m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2
    p90 = v[int(0.9 * (NR - 1) + 1.5)]; p99 = v[int(0.99 * (NR - 1) + 1.5)]
    printf "%.3f %.3f %.3f %.3f %.3f %d\n", m, p90, p99, v[1], v[NR], NR }'
}

# pace LINES FROM TO: iterations a second among halo_waitall's progress lines (--progress: "iteration
# N at T s") whose time is in [FROM, TO].
pace() {
  awk -v a="$2" -v b="$3" '$1 == "iteration" && $4 >= a && $4 <= b {
      if (n++ == 0) { i0 = $2; t0 = $4 } i1 = $2; t1 = $4 }
    END { if (n >= 3 && t1 > t0) printf "%.3f", (i1 - i0) / (t1 - t0); else print "-" }' "$1"
}
