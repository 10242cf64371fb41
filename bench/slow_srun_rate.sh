#!/usr/bin/env bash
# The job factor of a job whose ranks srun started (docs/decision-rule.md §5, "First, where the job's
# output comes at a steady rate"): root's slurmstepd sends the tasks' output to the step's srun, the
# job's user's own process on the batch node, and what that srun writes is the job's output count.
# RUNS runs of `tests/slurm/slow_drain.sh multi` on the project's multi-node cluster: a 3-node
# halo_waitall job (6 ranks under srun, rank 0 printing a line every 10 iterations), n2's two ranks
# stopped STOP_MS of every 100 ms from the end of the slow baseline until the supervisor drains n2.
# Measured: rank 0's iterations a second (its lines in the job's output file) in the 30 s before the
# fault over those from 5 s after it to the drain. Estimated: the first slow verdict's job factor
# (the supervisor's log); what it came from: that log replayed by bench/slow_replay.
#   bash bench/slow_srun_rate.sh [RUNS=2] [STOP_MS=75]   (root, after bash scripts/build.sh)
# OUT (default bench-out/slow_srun_rate) keeps each run's output file, supervisor log and times.
. "$(dirname "$0")/common.sh"
RUNS=${1:-2}
STOP_MS=${2:-75}
OUT=${OUT:-$TOP/bench-out/slow_srun_rate}
set -a
. "$BUILD/tests/slurm/cluster-env.sh"
set +a
bash "$TOP/tests/slurm/setup.sh" >/dev/null
mkdir -p "$OUT"
echo "| run | fault | pace before (it/s) | pace after (it/s) | measured | estimated | from | estimate / measured | named | s after the fault |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for ((run = 1; run <= RUNS; run++)); do
  dir=$OUT/run_$run
  rm -rf "$dir"
  # The previous run drained n2 (and resumed it on its way out): n2 idle again before the next job.
  for _ in $(seq 150); do
    [ "$(sinfo -h -n n2 -o %T 2>/dev/null)" = idle ] && break
    scontrol update NodeName=n2 State=RESUME 2>/dev/null || true
    sleep 0.2
  done
  if ! KEEP_DIR=$dir bash "$TOP/tests/slurm/slow_drain.sh" multi "$STOP_MS" >"$OUT/run_$run.log" 2>&1; then
    echo "| $run | n2 stopped $STOP_MS ms / 100 ms | run failed: $(grep -m1 FAIL "$OUT/run_$run.log" | cut -c1-160) |"
    continue
  fi
  read -r faulted acted <"$dir/times"
  out=$(compgen -G "$dir/out.*" | head -1)
  before=$(pace "$out" "$((faulted - 30))" "$faulted")
  after=$(pace "$out" "$((faulted + 5))" "$acted")
  line=$(grep -m1 -E '\]: slow: ' "$dir/supervisor.log")
  estimated=$(sed -n 's/.*\]: slow: [^;]* ~\([0-9.]*\)x.*/\1/p' <<<"$line")
  named=$(sed -n 's/.*\]: slow: \([^;]*\) ~.*/\1/p' <<<"$line")
  at=$(($(date -d "${line%% *}" +%s) - faulted))
  from=$(sed -E 's/^[0-9TZ:.-]+ //; s/jobsentry\[supervise job [0-9]+\]/jobsentry[watch]/' "$dir/supervisor.log" |
    "$BUILD/bench/slow_replay" --baseline-rounds 64 | sed -n '1s/.*job factor from \([a-z_]*\).*/\1/p')
  awk -v r="$run" -v s="$STOP_MS" -v b="$before" -v a="$after" -v e="$estimated" -v f="${from:--}" -v n="$named" -v t="$at" \
    'BEGIN { m = (a > 0) ? b / a : 0
             printf "| %d | n2 stopped %d ms / 100 ms | %s | %s | %.2f× | %s× | %s | %.2f | %s | %d |\n",
                    r, s, b, a, m, e, f, (m > 0 ? e / m : 0), n, t }'
done
