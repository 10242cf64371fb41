#!/usr/bin/env bash
# A degraded link (issue #29, item 5) on the project's multi-node cluster (scripts/cluster.sh: nodes
# n1..n4 in network namespaces on one bridge): a rate limit on both directions of node n2's link
# (limit_link in tests/slurm/lib.sh: this kernel has no netem).
# A 3-node halo_waitall job (6 ranks, Open MPI over TCP on the nodes' network), --hang-detect with a
# 128-round slow baseline (32 link readings: a node needs 20 to be tested); once the baseline is complete, n2's link is limited to RATE until the job
# ends. Per rate: the job's pace after the fault against an unfaulted run of the same length (rank
# 0's iterations), what the slow verdict named and when, and whether a hang was claimed.
# Usage: bash bench/slow_link.sh [RATES="20mbit 5mbit 2mbit"] [RUN_SECONDS=240]   (as root; JOBSENTRY_BUILD)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
RATES=${1:-"20mbit 5mbit 2mbit"}
RUN=${2:-240}
bash "$TOP/tests/slurm/setup.sh" >/dev/null
. "$TOP/tests/slurm/lib.sh"
trap 'unlimit_link n2; cleanup' EXIT
install -o "$TEST_USER" -m 0755 "$INSTALL/halo_waitall" "$WORK/halo_waitall"
use_plugin
multi_job_script job.sh "srun --mpi=pmix ./halo_waitall --seconds $RUN"
epoch() { date -d "$1" +%s; }

# run RATE ("-": no fault): prints "iterations seconds fault_after_start verdict_after_fault named hang"
run() {
  local rate=$1 id start fault=- verdict=- named=- hang=no line
  id=$(submit --hang-detect=slow_baseline_rounds=128 "${MULTI_NODE[@]}" job.sh)
  wait_state "$id" 60 RUNNING
  start=$(epoch "$(scontrol show job "$id" | sed -n 's/.* StartTime=\([^ ]*\).*/\1/p')")
  wait_log "$id" 120 "slow verdict: baseline of .* complete"
  if [ "$rate" != - ]; then limit_link n2 "$rate"; fault=$(date +%s); fi
  wait_state "$id" $((RUN + 300)) COMPLETED FAILED CANCELLED TIMEOUT >/dev/null
  unlimit_link n2
  line=$(supervisor_log "$id" | grep -E 'jobsentry\[supervise job [0-9]+\]: slow: ' | head -1 || true)
  if [ -n "$line" ]; then
    named=$(sed -n 's/.*\]: slow: \(.*\) ~.*/\1/p' <<<"$line" | tr ' ' '_')
    [ "$fault" = - ] || verdict=$(($(epoch "${line%% *}") - fault))
  fi
  supervisor_log "$id" | contains "HANG detected" && hang=yes
  read -r its secs < <(sed -n 's/^halo_waitall: \([0-9]*\) iterations in \([0-9.]*\) s$/\1 \2/p' "$WORK/out.$id")
  echo "${its:-?} ${secs:-?} $([ "$fault" = - ] && echo - || echo $((fault - start))) $verdict ${named:--} $hang"
}

read -r its0 secs0 _ <<<"$(run -)"
echo "| n2's link | job pace after the fault (iterations/s, against unfaulted) | job slowdown | slow verdict | s after the fault | hang claimed |"
echo "|---|---|---|---|---|---|"
echo "| unlimited | $(awk -v i="$its0" -v s="$secs0" 'BEGIN { printf "%.2f", i / s }') | 1 | - | - | - |"
for rate in $RATES; do
  read -r its secs at verdict named hang <<<"$(run "$rate")"
  # Iterations after the fault at the unfaulted pace r0 before it: r1 = (its - r0 * at) / (secs - at).
  awk -v i="$its" -v s="$secs" -v a="$at" -v i0="$its0" -v s0="$secs0" -v r="$rate" -v v="$verdict" -v n="$named" -v h="$hang" \
    'BEGIN { r0 = i0 / s0; r1 = (i - r0 * a) / (s - a); gsub("_", " ", n)
             printf "| %s | %.2f | %.2fx | %s | %s | %s |\n", r, r1, r0 / r1, n, v, h }'
done
