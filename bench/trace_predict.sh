#!/usr/bin/env bash
# Predicted against measured time of traced programs: each program is traced
# (jobsentry trace, 2 ranks), converted (trace-to-goal) and simulated
# (simulate --goal) with the LogGP parameters jobsentry loggp measured at the
# start; the measured time is the traced region trace-to-goal reports (the
# longest rank, first MPI call to last). ROUNDS runs per program, medians.
#   bash bench/trace_predict.sh [ROUNDS]
. "$(dirname "$0")/common.sh"
ROUNDS=${1:-3}
HALO=$BUILD/tests/programs/halo_waitall
"$JOBSENTRY" loggp --reps 50 --out "$SCRATCH/loggp.json" >"$SCRATCH/loggp.out" 2>&1
echo "LogGP parameters (jobsentry loggp --reps 50): $(tr -d '\n' <"$SCRATCH/loggp.json")"
echo
echo "| program (2 ranks) | runs | measured (ms) | predicted (ms) | predicted / measured | compute share |"
echo "|---|---|---|---|---|---|"
row() {  # row NAME CMD...
  local name=$1 i; shift
  : >"$SCRATCH/rows"
  for ((i = 0; i < ROUNDS; i++)); do
    rm -rf "$SCRATCH/t"
    "$JOBSENTRY" trace --trace-dir "$SCRATCH/t" -- mpirun -np 2 "$@" >/dev/null 2>&1
    "$JOBSENTRY" trace-to-goal "$SCRATCH/t" -o "$SCRATCH/app.goal" 2>/dev/null
    "$JOBSENTRY" simulate --goal "$SCRATCH/app.goal" --params "$SCRATCH/loggp.json" --json >"$SCRATCH/sim.json"
    python3 - "$SCRATCH/app.goal" "$SCRATCH/sim.json" >>"$SCRATCH/rows" <<'PY'
import json, re, sys
goal = open(sys.argv[1]).read()
traced = int(re.search(r"traced region: (\d+) ns", goal).group(1))
calc, rank = {}, None
for line in goal.splitlines():
  m = re.match(r"rank (\d+) \{", line)
  if m: rank = int(m.group(1))
  m = re.match(r"l\d+: calc (\d+)", line)
  if m: calc[rank] = calc.get(rank, 0) + int(m.group(1))
print(traced, json.load(open(sys.argv[2]))["makespan_ns"], max(calc.values()))
PY
  done
  python3 - "$name" "$SCRATCH/rows" <<'PY'
import statistics, sys
rows = [list(map(int, l.split())) for l in open(sys.argv[2])]
m, p, c = (statistics.median(r[i] for r in rows) for i in range(3))
print(f"| {sys.argv[1]} | {len(rows)} | {m / 1e6:.1f} | {p / 1e6:.1f} | {p / m:.2f} | {c / m:.2f} |")
PY
}
row "halo_waitall --seconds 2 --n 256" "$HALO" --seconds 2 --n 256
row "ring: 2000 x (200 us, Sendrecv 64 KiB)" "$BUILD/tests/programs/ring_allreduce" ring 2000 200 65536
row "allreduce: 5000 x (100 us, Allreduce 8 B)" "$BUILD/tests/programs/ring_allreduce" allreduce 5000 100 8
row "allreduce: 2000 x (100 us, Allreduce 64 KiB)" "$BUILD/tests/programs/ring_allreduce" allreduce 2000 100 65536
echo
echo "load average during the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
