#!/usr/bin/env bash
# The noise probe side by side with oslat (Debian's rt-tests) on the same PU
# for the same duration: loop iterations of at least T us (detours) and the
# longest one. Runs alternate (probe first, then oslat first), so drifts in
# the machine's load hit both alike; a markdown table on stdout.
#   bash bench/noise_vs_oslat.sh [PU] [SECONDS] [ROUNDS] [THRESHOLD_US]
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JOBSENTRY=${BUILD:-$TOP/build}/bin/jobsentry
[ -x "$JOBSENTRY" ] || { echo "build first: bash scripts/build.sh" >&2; exit 1; }
command -v oslat >/dev/null || { echo "oslat missing: apt-get install rt-tests" >&2; exit 1; }
PU=${1:-$(( $(nproc) - 1 ))}
SECONDS_=${2:-10}
ROUNDS=${3:-3}
T_US=${4:-10}
SCRATCH=$(mktemp -d /tmp/jobsentry-bench-noise.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT

probe() {  # prints "detours max_us"
  "$JOBSENTRY" noise --cpus "$PU" --duration "${SECONDS_}s" --threshold-ns $((T_US * 1000)) \
    --json "$SCRATCH/probe.json" >/dev/null
  jq -r '.pus[0] | "\(.detours) \(.max_detour_ns / 1000 | floor)"' "$SCRATCH/probe.json"
}
oslat_run() {  # prints "detours max_us"
  # 1024 one-us buckets; bucket k holds iterations of [k-1, k) us, so
  # "at least T us" is every bucket above T. The main thread sleeps on
  # another PU when there is one.
  local main=0
  [ "$PU" -eq 0 ] && [ "$(nproc)" -gt 1 ] && main=1
  oslat -c "$PU" -C "$main" -D "$SECONDS_" -b 1024 -q --json "$SCRATCH/oslat.json" >/dev/null
  jq -r --argjson t "$T_US" '.thread["0"] | "\([.histogram | to_entries[] | select((.key | tonumber) > $t) | .value] | add // 0) \(.max)"' \
    "$SCRATCH/oslat.json"
}

echo "PU $PU, ${SECONDS_} s per run, detours = loop iterations of at least ${T_US} us, $(date -u +%FT%TZ)"
echo
echo "| round | tool | detours >= ${T_US} us | per second | max latency (us) |"
echo "|---|---|---|---|---|"
: >"$SCRATCH/ratios"
for r in $(seq "$ROUNDS"); do
  if [ $((r % 2)) -eq 1 ]; then
    read -r pd pm < <(probe); read -r od om < <(oslat_run)
  else
    read -r od om < <(oslat_run); read -r pd pm < <(probe)
  fi
  echo "| $r | jobsentry noise | $pd | $(echo "scale=1; $pd / $SECONDS_" | bc) | $pm |"
  echo "| $r | oslat | $od | $(echo "scale=1; $od / $SECONDS_" | bc) | $om |"
  [ "$od" -gt 0 ] && echo "scale=3; $pd / $od" | bc >>"$SCRATCH/ratios"
done
if [ -s "$SCRATCH/ratios" ]; then
  echo
  echo "median ratio of detour counts (probe / oslat): $(sort -g "$SCRATCH/ratios" | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}')"
fi
