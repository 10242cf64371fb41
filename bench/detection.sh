#!/usr/bin/env bash
# Detection delay over injected hangs (sleep, loop, deadlock, SIGSTOP, in
# turn), from the moment of injection to detected_at in the report.
#   bash bench/detection.sh [HANGS] [NP] [HANG_AFTER_S]
. "$(dirname "$0")/common.sh"
HANGS=${1:-20}
NP=${2:-4}
AFTER=${3:-30}
kinds=(sleep loop deadlock sigstop)
missed=0 wrong=0
echo "| # | kind | rank | detected | named | delay (s) |" > "$SCRATCH/runs.md"
echo "|---|---|---|---|---|---|" >> "$SCRATCH/runs.md"
for i in $(seq "$HANGS"); do
  kind=${kinds[$(( (i - 1) % 4 ))]}
  rank=$(( RANDOM % NP ))
  rm -rf "$SCRATCH/pids" "$SCRATCH/r.json"; mkdir -p "$SCRATCH/pids"
  args=(--seconds 600 --hang-after "$AFTER" --hang-rank "$rank" --pid-dir "$SCRATCH/pids")
  [ "$kind" != sigstop ] && args+=(--hang "$kind")
  if [ "$kind" = sigstop ]; then
    # The pid file may come late on a loaded machine: wait for it, as the tests do.
    ( sleep "$AFTER"
      for _ in $(seq 100); do [ -s "$SCRATCH/pids/rank.$rank" ] && break; sleep 0.1; done
      kill -STOP "$(cat "$SCRATCH/pids/rank.$rank")"; date +%s.%N > "$SCRATCH/stopped_at" ) &
  fi
  timeout 300 "$JOBSENTRY" watch --report "$SCRATCH/r.json" -- \
    mpirun -np "$NP" "$HANGPROG" "${args[@]}" > /dev/null 2> "$SCRATCH/err" || true
  wait
  if [ "$kind" = sigstop ]; then injected=$(cat "$SCRATCH/stopped_at")
  else injected=$(grep -o 'HANG-INJECTED [0-9.]*' "$SCRATCH/err" | awk '{print $2}'); fi
  verdict=$(jq -r .verdict "$SCRATCH/r.json" 2>/dev/null || echo none)
  named=$(jq -r '.suspect_ranks | join(",")' "$SCRATCH/r.json" 2>/dev/null || echo "")
  if [ "$verdict" != hang ]; then
    missed=$((missed + 1)); echo "| $i | $kind | $rank | no | - | - |" >> "$SCRATCH/runs.md"; continue
  fi
  delay=$(echo "$(jq -r .detected_at "$SCRATCH/r.json") - $injected" | bc -l)
  printf "%.2f\n" "$delay" >> "$SCRATCH/delays.txt"
  ok=yes
  if [ "$kind" = deadlock ]; then [ "$(jq '.suspect_ranks | length' "$SCRATCH/r.json")" -eq "$NP" ] || ok=no
  else [ "$named" = "$rank" ] || ok=no; fi
  [ "$ok" = yes ] || wrong=$((wrong + 1))
  printf "| %d | %s | %d | yes | %s | %.1f |\n" "$i" "$kind" "$rank" "$ok ($named)" "$delay" >> "$SCRATCH/runs.md"
done
cat "$SCRATCH/runs.md"
read -r med p90 _ min max n < <(stats "$SCRATCH/delays.txt")
echo
echo "| hangs injected | detected | root cause named correctly | delay median (s) | delay p90 (s) | min (s) | max (s) |"
echo "|---|---|---|---|---|---|---|"
echo "| $HANGS | $((HANGS - missed)) | $((HANGS - missed - wrong)) | $med | $p90 | $min | $max |"
