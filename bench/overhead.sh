#!/usr/bin/env bash
# Monitoring overhead: wall time of a fixed amount of work (hangprog
# --iterations) with and without `jobsentry watch` at default settings,
# interleaved runs, ratio of the medians.
#   bash bench/overhead.sh [PAIRS] [ITERATIONS] [NP]
. "$(dirname "$0")/common.sh"
PAIRS=${1:-8}
ITERS=${2:-400}
NP=${3:-4}
run() {
  local s e
  s=$(date +%s%N)
  "$@" >/dev/null 2>&1
  e=$(date +%s%N)
  echo "scale=3; ($e - $s) / 1000000000" | bc
}
for i in $(seq "$PAIRS"); do
  # Alternate which goes first so drifts in machine load hit both alike.
  if [ $((i % 2)) -eq 0 ]; then
    run mpirun -np "$NP" "$HANGPROG" --iterations "$ITERS" >> "$SCRATCH/plain.txt"
    run "$JOBSENTRY" watch --report "$SCRATCH/r.json" -- mpirun -np "$NP" "$HANGPROG" --iterations "$ITERS" >> "$SCRATCH/watched.txt"
  else
    run "$JOBSENTRY" watch --report "$SCRATCH/r.json" -- mpirun -np "$NP" "$HANGPROG" --iterations "$ITERS" >> "$SCRATCH/watched.txt"
    run mpirun -np "$NP" "$HANGPROG" --iterations "$ITERS" >> "$SCRATCH/plain.txt"
  fi
done
read -r pm _ _ pmin pmax n < <(stats "$SCRATCH/plain.txt")
read -r wm _ _ wmin wmax _ < <(stats "$SCRATCH/watched.txt")
echo "| $NP ranks, $ITERS iterations | runs | median (s) | min (s) | max (s) |"
echo "|---|---|---|---|---|"
echo "| mpirun alone | $n | $pm | $pmin | $pmax |"
echo "| under jobsentry watch (I = 400 ms, 10 ranks) | $n | $wm | $wmin | $wmax |"
printf "\noverhead (ratio of medians - 1): %+.2f %%\n" "$(echo "($wm / $pm - 1) * 100" | bc -l)"
