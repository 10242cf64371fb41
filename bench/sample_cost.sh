#!/usr/bin/env bash
# Cost of one stack sample of one rank (seize, interrupt, unwind, detach),
# warm caches, next to eu-stack -p on the same rank.
#   bash bench/sample_cost.sh [SAMPLES] [EU_STACK_RUNS]
. "$(dirname "$0")/common.sh"
SAMPLES=${1:-2000}
EU_RUNS=${2:-20}
mpirun --oversubscribe -np 4 "$HANGPROG" --seconds 600 --pid-dir "$SCRATCH" >/dev/null 2>&1 &
for _ in $(seq 100); do [ -s "$SCRATCH/rank.1" ] && break; sleep 0.1; done
sleep 3
rank=$(cat "$SCRATCH/rank.1")
"$JOBSENTRY" sample --count 50 --pause-ms 1 "$rank" >/dev/null  # warm the caches
"$JOBSENTRY" sample --count "$SAMPLES" --pause-ms 2 "$rank" > "$SCRATCH/js.txt"
read -r js_median js_p99 < <(awk '/^samples/ {print $5, $7}' "$SCRATCH/js.txt")
for _ in $(seq "$EU_RUNS"); do
  s=$(date +%s%N); eu-stack -p "$rank" >/dev/null 2>&1 || true; e=$(date +%s%N)
  echo $(( (e - s) / 1000 )) >> "$SCRATCH/eu.txt"
  sleep 0.05
done
read -r eu_median _ eu_p99 _ _ eu_n < <(stats "$SCRATCH/eu.txt")
echo "| tool (busy 4-rank hangprog, rank 1) | samples | median (us) | p99 (us) |"
echo "|---|---|---|---|"
printf "| jobsentry sample (main thread, warm caches) | %d | %.0f | %.0f |\n" "$SAMPLES" "$js_median" "$js_p99"
printf "| eu-stack -p (all threads, whole process) | %d | %.0f | %.0f |\n" "$eu_n" "$eu_median" "$eu_p99"
printf "\nratio of medians eu-stack / jobsentry: %.0fx\n" "$(echo "$eu_median / $js_median" | bc -l)"
