#!/usr/bin/env bash
# The slides' qualitative results from measured traces (issue #18): the noise
# slowdown of a traced application grows with P, and a 10x faster network
# (L, g and G divided by 10) does not remove it.
#   bash bench/trace_noise_scale.sh [SCALES_LAMMPS] [SCALES_ALLREDUCE]
# Steps: jobsentry loggp (the parameters); LAMMPS (Debian's lmp, LJ melt of
# tests/apps/launch.sh, about 3 s of work) traced at 2 ranks and ring_allreduce
# (300 x (200 us of work, MPI_Allreduce 8 B)) at 3 ranks; trace-to-goal --scale
# to each P (LAMMPS's 3-D domains are no ring or chain: --scale-rule replicate,
# LogGOPSim's rule; the allreduce program by offsets); simulate each without
# noise, with the noise, and with the noise on a 10x faster network. Two noise
# traces: this machine's CPU 0 as `jobsentry noise` measures it (5 s), and the
# slides' regular noise (1000 Hz, 100 us detours).
. "$(dirname "$0")/common.sh"
SCALES_LAMMPS=${1:-2,16,128,1024}
SCALES_ALLREDUCE=${2:-3,48,768,12288}
command -v lmp >/dev/null || { echo "LAMMPS is missing: sudo scripts/install-apps.sh" >&2; exit 1; }

"$JOBSENTRY" loggp --reps 50 --out "$SCRATCH/loggp.json" >"$SCRATCH/loggp.out" 2>&1
"$JOBSENTRY" noise --cpus 0 --duration 5s --trace-dir "$SCRATCH/noise" >"$SCRATCH/noise.out"
printf '# period_ns 1000000\n0\t100000\n' >"$SCRATCH/regular.tsv"
"$JOBSENTRY" trace --trace-dir "$SCRATCH/lammps" -- \
  "$TOP/tests/apps/launch.sh" lammps "$SCRATCH/lammps-run" 2 3 >/dev/null 2>&1
"$JOBSENTRY" trace --trace-dir "$SCRATCH/allreduce" -- \
  mpirun --oversubscribe -np 3 "$BUILD/tests/programs/ring_allreduce" allreduce 300 200 8 >/dev/null 2>&1

echo "LogGP parameters (jobsentry loggp --reps 50): $(tr -d '\n' <"$SCRATCH/loggp.json")"
echo "measured noise of CPU 0 (jobsentry noise --duration 5s): $(awk '$1 == "0" {print $4 " % of the time, " $5 " detours"; exit}' "$SCRATCH/noise.out")"
echo
echo "| application | P | noise | noise-free (ms) | with noise (ms) | slowdown | slowdown, network 10x faster |"
echo "|---|---|---|---|---|---|---|"
field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$@"; }
rows() {  # rows NAME TRACE_DIR RULE SCALES
  local name=$1 dir=$2 rule=$3 p noise label
  for p in ${4//,/ }; do
    "$JOBSENTRY" trace-to-goal "$dir" --scale "$p" --scale-rule "$rule" -o "$SCRATCH/app.goal" 2>/dev/null
    for noise in "$SCRATCH/noise/cpu0.tsv" "$SCRATCH/regular.tsv"; do
      label=measured; [ "$noise" = "$SCRATCH/regular.tsv" ] && label="1000 Hz x 100 us"
      "$JOBSENTRY" simulate --goal "$SCRATCH/app.goal" --params "$SCRATCH/loggp.json" \
        --noise-trace "$noise" --json >"$SCRATCH/a.json"
      # A 10x faster network: L, g and G divided by 10 (o and O are the CPU's).
      python3 - "$SCRATCH/loggp.json" >"$SCRATCH/fast.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
print(json.dumps({k: (v / 10 if k in ("L", "g", "G") else v) for k, v in p.items()}))
PY
      "$JOBSENTRY" simulate --goal "$SCRATCH/app.goal" --params "$SCRATCH/fast.json" \
        --noise-trace "$noise" --json >"$SCRATCH/b.json"
      printf '| %s | %s | %s | %.1f | %.1f | %.4f | %.4f |\n' "$name" "$p" "$label" \
        "$(field "$SCRATCH/a.json" noise_free_makespan_ns | awk '{print $1 / 1e6}')" \
        "$(field "$SCRATCH/a.json" makespan_ns | awk '{print $1 / 1e6}')" \
        "$(field "$SCRATCH/a.json" slowdown)" "$(field "$SCRATCH/b.json" slowdown)"
    done
  done
}
rows "LAMMPS LJ melt (traced at 2)" "$SCRATCH/lammps" replicate "$SCALES_LAMMPS"
rows "300 x (200 us, Allreduce 8 B) (traced at 3)" "$SCRATCH/allreduce" offsets "$SCALES_ALLREDUCE"
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
