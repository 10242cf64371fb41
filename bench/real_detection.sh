#!/usr/bin/env bash
# Detection on the polling programs (tests/programs) and the real
# applications (tests/apps), unmodified: each run injects one hang kind
# (sleep, spin, read, stop through the LD_PRELOAD injector, or SIGSTOP from
# outside) into a random rank at a random time, through tests/mpi/real_code.sh,
# and records whether it was detected, whether that rank was named, and the
# delay from the injection to the verdict. Targets and kinds go round in turn.
#   bash bench/real_detection.sh [RUNS] [NP]       (KINDS="stop sigstop" to choose and order the kinds)
# Also logs every run's supervisor output to $OUT (default bench-out/real_detection), for model_replay.
. "$(dirname "$0")/common.sh"
RUNS=${1:-60}
NP=${2:-4}
OUT=${OUT:-$TOP/bench-out/real_detection}
mkdir -p "$OUT"
export INJECT_LIB=$BUILD/tests/inject/libjobsentry-inject.so PROGRAMS=$BUILD/tests/programs JOBSENTRY HANGPROG NP
mapfile -t apps < <(bash "$TOP/tests/apps/launch.sh" list)
targets=(hpl_like random_access halo_waitall overlap_test master_worker dgemm_phase "${apps[@]/#/app:}")
kinds=(sleep spin read stop sigstop)
# KINDS="sigstop stop ..." runs those kinds, in that order (each over every target in turn).
if [ -n "${KINDS:-}" ]; then
  read -r -a kinds <<<"$KINDS"
  for k in "${kinds[@]}"; do
    [[ " sleep spin read stop sigstop " == *" $k "* ]] ||
      { echo "KINDS: '$k' is not a kind (accepted: sleep spin read stop sigstop)" >&2; exit 2; }
  done
fi
echo "| # | target | kind | rank | at (s) | detected | named | suspects | delay (s) |"
echo "|---|---|---|---|---|---|---|---|---|"
: >"$SCRATCH/delays"
detected=0 named=0 skipped=0
for i in $(seq "$RUNS"); do
  target=${targets[$(( (i - 1) % ${#targets[@]} ))]}
  kind=${kinds[$(( (i - 1) / ${#targets[@]} % ${#kinds[@]} ))]}
  rank=$((RANDOM % NP))
  at=$((8 + RANDOM % 15))
  log="$OUT/run_$i.log"
  line=$(KEEP_WATCH_ERR="$log" bash "$TOP/tests/mpi/real_code.sh" "$target" "$kind" "$rank" "$at" 60 2>"$log.stderr" |
    grep -E '^(PASS|FAIL)' || true)
  [ -n "$line" ] || line=$(grep -E '^FAIL' "$log.stderr" | head -1)
  if [[ "$line" == *"never injected"* ]]; then
    # The injector hangs a rank only outside MPI; a rank that is always
    # inside (master_worker's master in MPI_Probe) cannot be hung this way.
    skipped=$((skipped + 1))
    echo "| $i | $target | $kind | $rank | $at | (not injected: the rank never left MPI) | - | - | - |"
  elif [[ "$line" =~ detected\ after\ ([0-9.]+)\ s,\ suspects\ ([0-9,]*) ]]; then
    delay=${BASH_REMATCH[1]} suspects=${BASH_REMATCH[2]}
    detected=$((detected + 1)); echo "$delay" >>"$SCRATCH/delays"
    ok=no; [[ ",$suspects," == *",$rank,"* ]] && { ok=yes; named=$((named + 1)); }
    echo "| $i | $target | $kind | $rank | $at | yes | $ok | $suspects | $delay |"
  else
    echo "| $i | $target | $kind | $rank | $at | no | - | - | - |  <!-- ${line:0:120} -->"
  fi
done
read -r med p90 p99 mn mx n < <(stats "$SCRATCH/delays")
echo
injected=$((RUNS - skipped))
echo "| injections | detected | rank named | median delay (s) | p90 (s) | max (s) |"
echo "|---|---|---|---|---|---|"
echo "| $injected | $detected ($(( 100 * detected / (injected > 0 ? injected : 1) )) %) | $named | $med | $p90 | $mx |"
