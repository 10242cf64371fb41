#!/usr/bin/env bash
# Monitoring overhead on a real application (tests/apps), by the
# application's own timing (e.g. LAMMPS's "Loop time"), with and without
# `jobsentry watch` at default settings: interleaved pairs (which goes first
# alternates), ratio of the medians.
#   bash bench/real_overhead.sh [APP] [PAIRS] [SECONDS] [NP]
. "$(dirname "$0")/common.sh"
APP=${1:-lammps}
PAIRS=${2:-6}
SECS=${3:-60}
NP=${4:-4}
LAUNCH=$TOP/tests/apps/launch.sh
one() {  # one MODE: prints the app's own timing of one run
  rm -rf "$SCRATCH/run"; mkdir -p "$SCRATCH/run"
  if [ "$1" = watched ]; then
    "$JOBSENTRY" watch --report "$SCRATCH/r.json" -- bash "$LAUNCH" "$APP" "$SCRATCH/run" "$NP" "$SECS" >/dev/null 2>&1
    [ "$(jq -r .verdict "$SCRATCH/r.json")" = no_hang ] || { echo "watched run claimed a hang" >&2; exit 1; }
  else
    bash "$LAUNCH" "$APP" "$SCRATCH/run" "$NP" "$SECS" >/dev/null 2>&1
  fi
  bash "$LAUNCH" "$APP" timing "$SCRATCH/run"
}
for i in $(seq "$PAIRS"); do
  if [ $((i % 2)) -eq 0 ]; then one plain >>"$SCRATCH/plain.txt"; one watched >>"$SCRATCH/watched.txt"
  else one watched >>"$SCRATCH/watched.txt"; one plain >>"$SCRATCH/plain.txt"; fi
done
read -r pm _ _ pmin pmax n < <(stats "$SCRATCH/plain.txt")
read -r wm _ _ wmin wmax _ < <(stats "$SCRATCH/watched.txt")
echo "| $APP, $NP ranks, app's own timing | runs | median (s) | min (s) | max (s) |"
echo "|---|---|---|---|---|"
echo "| plain | $n | $pm | $pmin | $pmax |"
echo "| jobsentry watch | $n | $wm | $wmin | $wmax |"
echo
echo "overhead (ratio of medians - 1): $(awk -v w="$wm" -v p="$pm" 'BEGIN { printf "%.1f", (w / p - 1) * 100 }') %"
