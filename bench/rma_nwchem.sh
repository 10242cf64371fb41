#!/usr/bin/env bash
# Overhead of `jobsentry rma-check` (mode 1) on a real RMA application: Debian's NWChem, whose Global
# Arrays run over ARMCI-MPI (MPI-3 one-sided). Mode 2 needs recompiling, so only mode 1 is measured.
# The work: tests/apps/launch.sh's B3LYP water MD, SECONDS of it as calibrated there (at 4 ranks); its
# input is made once by a short native run of launch.sh, and every measured run is the same command,
#   mpirun --oversubscribe -np NP -x OMP_NUM_THREADS -x LD_LIBRARY_PATH nwchem.openmpi h2o.nw
# in a fresh directory with that input (so that rma-check sees the program, as a user's command
# shows it). Native and mode 1 run interleaved, REPS rounds, the order alternating; the figures are
# NWChem's own "Total times ... wall" and the whole command (mode 1: with the analysis after the job).
# Ratios are of medians. The only findings allowed are ARMCI-MPI's own (one origin's MPI_SUM of
# MPI_DOUBLEs, then its MPI_REPLACE of MPI_BYTEs to the same bytes: tests/rma/app_nwchem.sh); any
# other stops the script. Also printed: the RMA calls per rank that mode 1 checked.
# HYBRID=1 runs NWChem as an MPI + OpenMP code: OpenBLAS's OpenMP build (scripts/install-apps.sh
# unpacks it) first on LD_LIBRARY_PATH and OMP_NUM_THREADS=2, so that its BLAS runs GCC-built OpenMP
# threads; rma-check then gives the ranks LLVM libomp in libgomp's place, as it says.
#
# Usage: nice -n 19 bash bench/rma_nwchem.sh [REPS] [NP] [SECONDS]   (defaults 3 2 20)
. "$(dirname "$0")/common.sh"
REPS=${1:-3} NP=${2:-2} SECS=${3:-20}
command -v nwchem.openmpi >/dev/null || { echo "nwchem.openmpi missing: run scripts/install-apps.sh" >&2; exit 1; }
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
if [ "${HYBRID:-0}" = 1 ]; then
  OPENBLAS=/var/cache/jobsentry/openblas-openmp/usr/lib/x86_64-linux-gnu/openblas-openmp
  [ -e "$OPENBLAS/libblas.so.3" ] || { echo "$OPENBLAS missing: run scripts/install-apps.sh" >&2; exit 1; }
  export LD_LIBRARY_PATH=$OPENBLAS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} OMP_NUM_THREADS=2
fi
bash "$TOP/tests/apps/launch.sh" nwchem "$SCRATCH/input" "$NP" "$SECS" >/dev/null 2>&1 ||
  { echo "FAIL: NWChem's native run that makes the input failed" >&2; exit 1; }
ARMCI_ONLY='(.errors | length) == 0 and all(.findings[]; .why == "different basic types" and .a.rank == .b.rank and
  ([.a.basic_type, .b.basic_type] | sort) == ["MPI_BYTE", "MPI_DOUBLE"])'

run() {  # run native|mode1 ROUND
  local cfg=$1 dir=$SCRATCH/$1.$2 s e status=0
  local cmd=(mpirun --oversubscribe -np "$NP" -x OMP_NUM_THREADS -x LD_LIBRARY_PATH nwchem.openmpi h2o.nw)
  [ "$cfg" = mode1 ] && cmd=("$JOBSENTRY" rma-check --report "$SCRATCH/$cfg.$2.json" --trace-dir "$SCRATCH/tr" -- "${cmd[@]}")
  rm -rf "$SCRATCH/tr" "$dir"
  mkdir -p "$dir" && cp "$SCRATCH/input/h2o.nw" "$dir/"
  s=$(date +%s%N)
  (cd "$dir" && "${cmd[@]}" >"$dir/app.out" 2>"$SCRATCH/err") || status=$?
  e=$(date +%s%N)
  [ "$status" -eq 0 ] || { [ "$cfg" = mode1 ] && [ "$status" -eq 4 ]; } ||
    { echo "FAIL: $cfg round $2 exited $status" >&2; grep -E '^(RACE|NOTE|jobsentry)' "$SCRATCH/err" >&2; exit 1; }
  bash "$TOP/tests/apps/launch.sh" nwchem timing "$dir" >>"$SCRATCH/$cfg.app"
  echo "scale=3; ($e - $s) / 1000000000" | bc >>"$SCRATCH/$cfg.job"
  if [ "$cfg" = mode1 ]; then
    jq -e "$ARMCI_ONLY" "$SCRATCH/$cfg.$2.json" >/dev/null ||
      { echo "FAIL: a finding in NWChem other than ARMCI-MPI's accumulates" >&2; jq -r '.findings[].line' "$SCRATCH/$cfg.$2.json" >&2; exit 1; }
    jq -r '[.ranks[].rma_calls] | add / length' "$SCRATCH/$cfg.$2.json" >>"$SCRATCH/calls"
    grep -m1 '^jobsentry rma-check: .* runs GCC.s libgomp' "$SCRATCH/err" >"$SCRATCH/runtime" || true
  fi
  echo "  round $2 $cfg: NWChem wall $(tail -1 "$SCRATCH/$cfg.app") s, command $(tail -1 "$SCRATCH/$cfg.job") s" >&2
}

for r in $(seq "$REPS"); do
  if [ $((r % 2)) = 1 ]; then run native "$r"; run mode1 "$r"; else run mode1 "$r"; run native "$r"; fi
done
med() { stats "$1" | cut -d' ' -f1; }
ratio() { echo "$(med "$2") $(med "$1")" | awk '{printf "%.2f", $1/$2}'; }
echo "NWChem (B3LYP water MD, launch.sh SECONDS=$SECS), $NP ranks, OMP_NUM_THREADS=$OMP_NUM_THREADS${HYBRID:+, HYBRID=$HYBRID}, $REPS interleaved rounds, medians:"
echo
echo "| | native | mode 1 | ratio |"
echo "|---|---|---|---|"
echo "| NWChem wall (s) | $(med "$SCRATCH/native.app") | $(med "$SCRATCH/mode1.app") | $(ratio "$SCRATCH/native.app" "$SCRATCH/mode1.app")x |"
echo "| whole command (s) | $(med "$SCRATCH/native.job") | $(med "$SCRATCH/mode1.job") | $(ratio "$SCRATCH/native.job" "$SCRATCH/mode1.job")x |"
echo
echo "RMA calls checked per rank (median): $(med "$SCRATCH/calls"); findings: ARMCI-MPI's byte/double accumulates only"
[ -s "$SCRATCH/runtime" ] && echo "OpenMP: $(sed 's/^jobsentry rma-check: //' "$SCRATCH/runtime")"
exit 0
