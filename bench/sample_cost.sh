#!/usr/bin/env bash
# Cost of one stack sample (seize, interrupt, wait for the stop, unwind,
# detach) of a sleeping process, a rank with a core of its own and a rank of an
# oversubscribed job,
# warm caches, next to eu-stack -p on the same rank.
#   bash bench/sample_cost.sh [SAMPLES] [EU_STACK_RUNS]
. "$(dirname "$0")/common.sh"
SAMPLES=${1:-2000}
EU_RUNS=${2:-20}
# measure LABEL PID: one table row from jobsentry sample.
measure() {
  "$JOBSENTRY" sample --count 50 --pause-ms 1 "$2" >/dev/null  # warm the caches
  "$JOBSENTRY" sample --count "$SAMPLES" --pause-ms 2 "$2" > "$SCRATCH/js.txt"
  awk -v label="$1" -v n="$SAMPLES" '/^samples/ {
    printf "| jobsentry sample: %s | %d | %.0f | %.0f | %.0f | %.0f |\n", label, n, $5, $7, $12, $14 }' "$SCRATCH/js.txt"
}
wait_for() { for _ in $(seq 100); do [ -s "$1" ] && return; sleep 0.1; done; }

echo "| what is sampled | samples | median (us) | p99 (us) | median without waiting for the stop (us) | p99 without (us) |"
echo "|---|---|---|---|---|---|"
sleep 600 & sleeper=$!
measure "sleeping process (sleep 600)" "$sleeper"
kill "$sleeper"
mkdir -p "$SCRATCH/one"
mpirun -np 1 "$HANGPROG" --seconds 600 --pid-dir "$SCRATCH/one" >/dev/null 2>&1 &
wait_for "$SCRATCH/one/rank.0"; sleep 2
measure "busy 1-rank job (rank has a core to itself)" "$(cat "$SCRATCH/one/rank.0")"
end_tagged; sleep 1
mpirun --oversubscribe -np 4 "$HANGPROG" --seconds 600 --pid-dir "$SCRATCH" >/dev/null 2>&1 &
wait_for "$SCRATCH/rank.1"; sleep 3
rank=$(cat "$SCRATCH/rank.1")
measure "busy 4-rank job on 2 cores (rank 1)" "$rank"
read -r js_median _ < <(awk '/^samples/ {print $5}' "$SCRATCH/js.txt")
for _ in $(seq "$EU_RUNS"); do
  s=$(date +%s%N); eu-stack -p "$rank" >/dev/null 2>&1 || true; e=$(date +%s%N)
  echo $(( (e - s) / 1000 )) >> "$SCRATCH/eu.txt"
  sleep 0.05
done
read -r eu_median _ eu_p99 _ _ eu_n < <(stats "$SCRATCH/eu.txt")
printf "| eu-stack -p, same rank (all threads, whole process) | %d | %.0f | %.0f | - | - |\n" "$eu_n" "$eu_median" "$eu_p99"
printf "\nratio of medians on the same rank, eu-stack / jobsentry: %.0fx\n" "$(echo "$eu_median / $js_median" | bc -l)"
