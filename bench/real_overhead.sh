#!/usr/bin/env bash
# Monitoring overhead on real applications (tests/apps), by each application's own timing (e.g.
# LAMMPS's "Loop time"), with and without `jobsentry watch` at default settings: interleaved pairs
# (which goes first alternates), one row per application in one table: the medians and spread of
# both, the ratio of the medians, the median of the pairs' ratios, and the supervisor's CPU share of
# the job in the watched runs (the report's supervisor_cost: median over the runs, whole run and from
# the 20th round).
#   bash bench/real_overhead.sh [APPS="lammps"] [PAIRS=6] [SECONDS=60] [NP=4]
. "$(dirname "$0")/common.sh"
read -r -a APPS <<<"${1:-lammps}"
PAIRS=${2:-6}
SECS=${3:-60}
NP=${4:-4}
LAUNCH=$TOP/tests/apps/launch.sh
calibrated_app_rates
one() {  # one APP MODE: appends the app's own timing of one run (and, watched, the CPU shares)
  local app=$1 mode=$2
  rm -rf "$SCRATCH/run"; mkdir -p "$SCRATCH/run"
  if [ "$mode" = watched ]; then
    "$JOBSENTRY" watch --report "$SCRATCH/r.json" -- bash "$LAUNCH" "$app" "$SCRATCH/run" "$NP" "$SECS" >/dev/null 2>&1
    [ "$(jq -r .verdict "$SCRATCH/r.json")" = no_hang ] || { echo "$app: a watched run claimed a hang" >&2; exit 1; }
    jq -r '.supervisor_cost.share_percent' "$SCRATCH/r.json" >>"$SCRATCH/$app.share"
    jq -r '.supervisor_cost.steady_share_percent // empty' "$SCRATCH/r.json" >>"$SCRATCH/$app.steady"
  else
    bash "$LAUNCH" "$app" "$SCRATCH/run" "$NP" "$SECS" >/dev/null 2>&1
  fi
  bash "$LAUNCH" "$app" timing "$SCRATCH/run" >>"$SCRATCH/$app.$mode"
}
echo "| code, $NP ranks, its own timing | pairs | plain: median (min–max), s | watched: median (min–max), s | ratio of medians − 1 | median of pair ratios − 1 | supervisor CPU share of the job, median: whole run / from the 20th round (%) |"
echo "|---|---|---|---|---|---|---|"
for app in "${APPS[@]}"; do
  for i in $(seq "$PAIRS"); do
    if [ $((i % 2)) -eq 0 ]; then one "$app" plain; one "$app" watched
    else one "$app" watched; one "$app" plain; fi
  done
  read -r pm _ _ pmin pmax n < <(stats "$SCRATCH/$app.plain")
  read -r wm _ _ wmin wmax _ < <(stats "$SCRATCH/$app.watched")
  paste "$SCRATCH/$app.watched" "$SCRATCH/$app.plain" | awk '{ print $1 / $2 }' >"$SCRATCH/$app.ratios"
  read -r rm _ < <(stats "$SCRATCH/$app.ratios")
  read -r share _ < <(stats "$SCRATCH/$app.share")
  read -r steady _ < <(stats "$SCRATCH/$app.steady")
  awk -v a="$app" -v n="$n" -v pm="$pm" -v pmin="$pmin" -v pmax="$pmax" -v wm="$wm" -v wmin="$wmin" -v wmax="$wmax" \
    -v rm="$rm" -v s="$share" -v st="$steady" \
    'BEGIN { printf "| %s | %d | %.2f (%.2f–%.2f) | %.2f (%.2f–%.2f) | %+.2f %% | %+.2f %% | %.3f / %s |\n",
             a, n, pm, pmin, pmax, wm, wmin, wmax, (wm / pm - 1) * 100, (rm - 1) * 100, s, st == "-" ? "-" : sprintf("%.3f", st) }'
done
