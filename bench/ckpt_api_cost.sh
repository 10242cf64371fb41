#!/usr/bin/env bash
# Cost of jobsentry_ckpt.h per iteration: ckpt_app (2 ranks, no sleep, no
# checkpoint taken) with the fallback period vs the Young/Daly rule (rank 0
# recomputes W_th from up to 1024 iteration times at every decision),
# interleaved runs, medians. Both modes pay the clock reads and one MPI_Bcast.
#   bash bench/ckpt_api_cost.sh [PAIRS] [ITERATIONS]
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
APP=$BUILD/tests/programs/ckpt_app
[ -x "$APP" ] || { echo "build first: cmake --build build --target ckpt_app" >&2; exit 1; }
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
PAIRS=${1:-5}
ITERS=${2:-4000}
SCRATCH=$(mktemp -d /tmp/jobsentry-bench.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT
run() {  # run FILE ENV...: appends the wall time in seconds
  local out=$1; shift
  rm -rf "$SCRATCH/d" && mkdir "$SCRATCH/d"
  local s e
  s=$(date +%s%N)
  env "$@" mpirun -np 2 "$APP" --iterations "$ITERS" --sleep-ms 0 --dir "$SCRATCH/d" >/dev/null 2>"$SCRATCH/err"
  e=$(date +%s%N)
  grep -q " 0 checkpoints" "$SCRATCH/err" || { echo "unexpected checkpoints: $(tail -1 "$SCRATCH/err")" >&2; exit 1; }
  echo "scale=4; ($e - $s) / 1000000000" | bc >>"$out"
}
for i in $(seq "$PAIRS"); do
  run "$SCRATCH/period" -u JOBSENTRY_MTBF
  run "$SCRATCH/yd" JOBSENTRY_MTBF=24h JOBSENTRY_CKPT_COST=60s
done
med() { sort -g "$1" | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
p=$(med "$SCRATCH/period"); y=$(med "$SCRATCH/yd")
echo "| mode | runs | median wall s ($ITERS iterations, 2 ranks) | extra µs per iteration vs period |"
echo "|---|---|---|---|"
echo "| fallback period | $PAIRS | $p | — |"
echo "| Young/Daly (W_th every iteration) | $PAIRS | $y | $(echo "scale=1; ($y - $p) * 1000000 / $ITERS" | bc) |"
