#!/usr/bin/env bash
# False alarms over hang-free runs: the iterative program and the one with
# long single-rank phases, 4 and 8 ranks, until MINUTES of runs are done.
#   bash bench/false_alarms.sh [MINUTES] [RUN_SECONDS]
. "$(dirname "$0")/common.sh"
MINUTES=${1:-30}
RUN=${2:-120}
configs=("4 plain" "4 long-phases" "8 plain" "8 long-phases")
total=0 runs=0 alarms=0 cleared=0 samples=0 i=0
echo "| run | ranks | program | seconds | samples | verdict | alarms cleared by verification |"
echo "|---|---|---|---|---|---|---|"
while [ "$total" -lt $((MINUTES * 60)) ]; do
  read -r np mode <<< "${configs[$((i % 4))]}"; i=$((i + 1))
  extra=(); [ "$mode" = long-phases ] && extra=(--long-phases)
  s=$(date +%s)
  "$JOBSENTRY" watch --report "$SCRATCH/r.json" -- \
    mpirun -np "$np" "$HANGPROG" --seconds "$RUN" "${extra[@]}" > /dev/null 2>&1 || true
  e=$(date +%s)
  total=$((total + e - s)); runs=$((runs + 1))
  verdict=$(jq -r .verdict "$SCRATCH/r.json")
  v=$(jq -r .evidence.verifications "$SCRATCH/r.json"); n=$(jq -r .samples "$SCRATCH/r.json")
  [ "$verdict" = no_hang ] || alarms=$((alarms + 1))
  cleared=$((cleared + v)); samples=$((samples + n))
  echo "| $runs | $np | $mode | $((e - s)) | $n | $verdict | $v |"
done
echo
echo "| hang-free minutes | runs | samples | false alarms | candidate alarms cleared by verification |"
echo "|---|---|---|---|---|"
echo "| $((total / 60)) | $runs | $samples | $alarms | $cleared |"
