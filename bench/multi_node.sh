#!/usr/bin/env bash
# Multi-node jobs on the project's cluster (partition multi, nodes n1..n4 in network
# namespaces, scripts/cluster.sh): what the leader costs as the job grows.
# For each NODESxRANKS a hang-free hangprog job (srun --mpi=pmix, Open MPI over TCP)
# runs DURATION seconds with `--hang-detect` (default settings: 10 monitored ranks,
# I = 400 ms); the leader logs at its end its own CPU time (getrusage), its samples
# and the bytes it exchanged with the node agents ("leader cost:" line).
# Usage: bash bench/multi_node.sh [DURATION=90] [CONFIGS="1x8 2x16 4x16 4x32 4x64"]   (as root)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
DURATION=${1:-90}
CONFIGS=${2:-"1x8 2x16 4x16 4x32 4x64"}
bash "$TOP/tests/slurm/setup.sh" >/dev/null  # this build's binaries: build/tests/slurm/cluster-env.sh
. "$TOP/tests/slurm/lib.sh"
use_plugin log_samples=no   # the per-sample log lines of the tests' policy would be counted too

echo "### Leader cost per sample ($DURATION s hang-free jobs, --hang-detect defaults: 10 monitored ranks)"
echo
echo "Whole job: from the supervisor's start (libslurm, symbol tables of its own node's ranks) to the end."
echo "Steady: from the 20th sample to the end."
echo
echo "| nodes | ranks | samples | leader CPU, whole job (s) | share of one core, whole job | steady samples | steady CPU (s) | steady share of one core | steady CPU per sample (µs) | requests | bytes to/from agents | bytes per sample |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for config in $CONFIGS; do
  nodes=${config%x*} ranks=${config#*x}
  multi_job_script "job$config.sh" "srun --mpi=pmix $INSTALL/hangprog --seconds $DURATION"
  id=$(submit --hang-detect -p multi -N "$nodes" --ntasks-per-node=$((ranks / nodes)) "job$config.sh")
  wait_state "$id" $((DURATION * 4 + 120)) COMPLETED FAILED CANCELLED
  line=""
  for _ in $(seq 40); do
    line=$(supervisor_log "$id" | grep 'leader cost:' | tail -1 || true)
    [ -n "$line" ] && break
    sleep 0.5
  done
  [ -n "$line" ] || fail "job $id ($config): no 'leader cost' line in the supervisor log"
  field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$line"; }
  cpu=$(field cpu_s) wall=$(field wall_s) samples=$(field samples) found=$(field ranks)
  requests=$(field requests) sent=$(field bytes_sent) received=$(field bytes_received)
  bytes=$(( ${sent:-0} + ${received:-0} ))
  [ "$found" = "$ranks" ] || echo "(job $id: the leader found $found of $ranks ranks)" >&2
  wcpu=$(field warm_cpu_s) wwall=$(field warm_wall_s) wsamples=$(field warm_samples)
  share=$(echo "scale=2; 100 * $cpu / $wall" | bc)
  wshare=$(echo "scale=3; 100 * $wcpu / $wwall" | bc)
  wper=$(echo "scale=0; 1000000 * $wcpu / $wsamples" | bc)
  per_bytes=$(( samples > 0 ? bytes / samples : 0 ))
  echo "| $nodes | $ranks | $samples | $cpu | ${share} % | $wsamples | $wcpu | ${wshare} % | $wper | ${requests:-0} | $bytes | $per_bytes |"
done
