#!/usr/bin/env bash
# Runtime overhead of the RMA checker on RMA-heavy kernels (bench/rma/rma_bench.c):
# the same work natively (mpirun alone), with the preload module in mode 1
# (page protection, uninstrumented binary) and in mode 2 (binary built with
# jobsentry-mpicc), set up exactly as `jobsentry rma-check` does (LD_PRELOAD,
# JOBSENTRY_RMA_TRACE_DIR, JOBSENTRY_RMA_MODE). Runs are interleaved, the order
# rotating each round; ratios are of medians. The offline analysis that
# rma-check runs after the job is timed apart (rma-report on mode 1's traces),
# and trace bytes per RMA call are all trace bytes / RMA calls.
#   bash bench/rma_overhead.sh [ROUNDS] [NP] [ITERATIONS]
. "$(dirname "$0")/common.sh"
ROUNDS=${1:-5}
NP=${2:-4}
ITERS=${3:-2000}
SRC=$TOP/bench/rma/rma_bench.c
mpicc -O2 -g -o "$SCRATCH/native" "$SRC"
"$BUILD/rmacheck/jobsentry-mpicc" -O2 -o "$SCRATCH/precise" "$SRC"
secs() {  # secs CMD...: wall time in seconds
  local s e
  s=$(date +%s%N)
  "$@" >/dev/null 2>&1 || true
  e=$(date +%s%N)
  echo "scale=4; ($e - $s) / 1000000000" | bc
}
run_native() { secs mpirun -np "$NP" "$SCRATCH/native" "$1" "$ITERS"; }
LIB=$BUILD/rmacheck/libjobsentry-rmacheck.so
run_mode1() {
  mkdir -p "$SCRATCH/t1-$1"
  secs env LD_PRELOAD="$LIB" JOBSENTRY_RMA_TRACE_DIR="$SCRATCH/t1-$1" JOBSENTRY_RMA_MODE=protect \
    mpirun -np "$NP" "$SCRATCH/native" "$1" "$ITERS"
}
run_mode2() {
  mkdir -p "$SCRATCH/t2-$1"
  secs env LD_PRELOAD="$LIB" JOBSENTRY_RMA_TRACE_DIR="$SCRATCH/t2-$1" JOBSENTRY_RMA_MODE=precise \
    mpirun -np "$NP" "$SCRATCH/precise" "$1" "$ITERS"
}
echo "| kernel ($NP ranks, $ITERS iterations, $ROUNDS rounds) | native median (s) | mode 1 median (s) | mode 1 ratio | mode 2 median (s) | mode 2 ratio | trace bytes per RMA call | analysis (s) |"
echo "|---|---|---|---|---|---|---|---|"
for k in halo counter gather; do
  for i in $(seq "$ROUNDS"); do
    case $((i % 3)) in
      0) run_native $k >>"$SCRATCH/$k.n"; run_mode1 $k >>"$SCRATCH/$k.1"; run_mode2 $k >>"$SCRATCH/$k.2" ;;
      1) run_mode1 $k >>"$SCRATCH/$k.1"; run_mode2 $k >>"$SCRATCH/$k.2"; run_native $k >>"$SCRATCH/$k.n" ;;
      2) run_mode2 $k >>"$SCRATCH/$k.2"; run_native $k >>"$SCRATCH/$k.n"; run_mode1 $k >>"$SCRATCH/$k.1" ;;
    esac
  done
  read -r n _ < <(stats "$SCRATCH/$k.n")
  read -r m1 _ < <(stats "$SCRATCH/$k.1")
  read -r m2 _ < <(stats "$SCRATCH/$k.2")
  analysis=$(secs "$JOBSENTRY" rma-report --report "$SCRATCH/$k.json" "$SCRATCH/t1-$k")
  calls=$(jq '[.ranks[].rma_calls] | add' "$SCRATCH/$k.json")
  bytes=$(cat "$SCRATCH"/t1-$k/rank-*.jsrma | wc -c)
  printf "| %s | %s | %s | %.2f | %s | %.2f | %s | %s |\n" "$k" "$n" "$m1" "$(echo "$m1 / $n" | bc -l)" "$m2" \
    "$(echo "$m2 / $n" | bc -l)" "$(echo "scale=1; $bytes / $calls" | bc)" "$analysis"
done
echo
echo "Trace bytes per RMA call: all of mode 1's trace bytes (windows, syncs, modules included) / RMA calls."
