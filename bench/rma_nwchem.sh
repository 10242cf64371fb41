#!/usr/bin/env bash
# Overhead of `jobsentry rma-check` (mode 1) on a real RMA application: Debian's NWChem, whose Global
# Arrays run over ARMCI-MPI (MPI-3 one-sided). Mode 2 needs recompiling, so only mode 1 is measured.
# The work: tests/apps/launch.sh's B3LYP water MD, SECONDS of it as calibrated there (at 4 ranks).
# Native and mode 1 run interleaved, REPS rounds, the order alternating; the figures are NWChem's own
# "Total times ... wall" (its whole run, start-up included) and the whole command (mode 1: with the
# analysis after the job). Ratios are of medians. A finding stops the script: NWChem's RMA use is
# race-free. Also printed: the RMA calls per rank that mode 1 checked (from the report).
#
# Usage: nice -n 19 bash bench/rma_nwchem.sh [REPS] [NP] [SECONDS]   (defaults 3 2 20)
. "$(dirname "$0")/common.sh"
REPS=${1:-3} NP=${2:-2} SECS=${3:-20}
command -v nwchem.openmpi >/dev/null || { echo "nwchem.openmpi missing: run scripts/install-apps.sh" >&2; exit 1; }

run() {  # run native|mode1 ROUND
  local cfg=$1 dir=$SCRATCH/$1.$2 s e status=0 cmd=(bash "$TOP/tests/apps/launch.sh" nwchem "$SCRATCH/$1.$2" "$NP" "$SECS")
  [ "$cfg" = mode1 ] && cmd=("$JOBSENTRY" rma-check --report "$SCRATCH/$cfg.$2.json" --trace-dir "$SCRATCH/tr" -- "${cmd[@]}")
  rm -rf "$SCRATCH/tr"
  s=$(date +%s%N)
  "${cmd[@]}" >"$SCRATCH/out" 2>"$SCRATCH/err" || status=$?
  e=$(date +%s%N)
  [ "$status" -eq 0 ] || { echo "FAIL: $cfg round $2 exited $status" >&2; grep -E '^(RACE|NOTE|jobsentry)' "$SCRATCH/err" >&2; exit 1; }
  bash "$TOP/tests/apps/launch.sh" nwchem timing "$dir" >>"$SCRATCH/$cfg.app"
  echo "scale=3; ($e - $s) / 1000000000" | bc >>"$SCRATCH/$cfg.job"
  if [ "$cfg" = mode1 ]; then
    jq -e '.races == 0' "$SCRATCH/$cfg.$2.json" >/dev/null || { echo "FAIL: a finding in NWChem" >&2; exit 1; }
    jq -r '[.ranks[].rma_calls] | add / length' "$SCRATCH/$cfg.$2.json" >>"$SCRATCH/calls"
  fi
  echo "  round $2 $cfg: NWChem wall $(tail -1 "$SCRATCH/$cfg.app") s, command $(tail -1 "$SCRATCH/$cfg.job") s" >&2
}

for r in $(seq "$REPS"); do
  if [ $((r % 2)) = 1 ]; then run native "$r"; run mode1 "$r"; else run mode1 "$r"; run native "$r"; fi
done
med() { stats "$1" | cut -d' ' -f1; }
echo "NWChem (B3LYP water MD, launch.sh SECONDS=$SECS), $NP ranks, $REPS interleaved rounds, medians:"
echo
echo "| | native | mode 1 | ratio |"
echo "|---|---|---|---|"
echo "| NWChem wall (s) | $(med "$SCRATCH/native.app") | $(med "$SCRATCH/mode1.app") | $(echo "$(med "$SCRATCH/mode1.app") $(med "$SCRATCH/native.app")" | awk '{printf "%.1f", $1/$2}')x |"
echo "| whole command (s) | $(med "$SCRATCH/native.job") | $(med "$SCRATCH/mode1.job") | $(echo "$(med "$SCRATCH/mode1.job") $(med "$SCRATCH/native.job")" | awk '{printf "%.1f", $1/$2}')x |"
echo
echo "RMA calls checked per rank (median): $(med "$SCRATCH/calls"); findings: 0"
