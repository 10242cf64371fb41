#!/usr/bin/env bash
# Predicted against measured time of traced programs: each program is traced
# (jobsentry trace, NP ranks), converted (trace-to-goal) and simulated
# (simulate --goal) with the LogGP parameters jobsentry loggp measured at the
# start; the measured time is the traced region trace-to-goal reports (the
# longest rank, first MPI call to last). ROUNDS runs per program, medians; the
# programs are interleaved within each round. LAMMPS (Debian's lmp, the LJ melt
# of tests/apps/launch.sh, about 10 s of work) needs scripts/install-apps.sh.
# More ranks than cores are oversubscribed (--oversubscribe).
#   bash bench/trace_predict.sh [ROUNDS] [NP]
# Measure with nothing else running: with autogroup scheduling on
# (/proc/sys/kernel/sched_autogroup_enabled = 1) even `nice -n 19` work in
# another session takes half the cores.
. "$(dirname "$0")/common.sh"
ROUNDS=${1:-3}
NP=${2:-2}
RING=$BUILD/tests/programs/ring_allreduce
HALO=$BUILD/tests/programs/halo_waitall
"$JOBSENTRY" loggp --reps 50 --out "$SCRATCH/loggp.json" >"$SCRATCH/loggp.out" 2>&1
echo "LogGP parameters (jobsentry loggp --reps 50): $(tr -d '\n' <"$SCRATCH/loggp.json")"
echo
echo "| program ($NP ranks) | runs | measured (ms) | predicted (ms) | predicted / measured | compute share |"
echo "|---|---|---|---|---|---|"
run() {  # run KEY CMD...: one traced run, its figures appended to $SCRATCH/rows.KEY
  local key=$1; shift
  rm -rf "$SCRATCH/t"
  "$JOBSENTRY" trace --trace-dir "$SCRATCH/t" -- "$@" >/dev/null 2>&1
  "$JOBSENTRY" trace-to-goal "$SCRATCH/t" -o "$SCRATCH/app.goal" 2>/dev/null
  "$JOBSENTRY" simulate --goal "$SCRATCH/app.goal" --params "$SCRATCH/loggp.json" --json >"$SCRATCH/sim.json"
  python3 - "$SCRATCH/app.goal" "$SCRATCH/sim.json" >>"$SCRATCH/rows.$key" <<'PY'
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
}
summary() {  # summary KEY NAME: medians over the rounds
  python3 - "$2" "$SCRATCH/rows.$1" <<'PY'
import statistics, sys
rows = [list(map(int, l.split())) for l in open(sys.argv[2])]
m, p, c = (statistics.median(r[i] for r in rows) for i in range(3))
print(f"| {sys.argv[1]} | {len(rows)} | {m / 1e6:.1f} | {p / 1e6:.1f} | {p / m:.2f} | {c / m:.2f} |")
PY
}
MPIRUN=(mpirun --oversubscribe -np "$NP")
for ((i = 0; i < ROUNDS; i++)); do
  run halo "${MPIRUN[@]}" "$HALO" --seconds 2 --n 256
  run ring "${MPIRUN[@]}" "$RING" ring 2000 200 65536
  run ar8 "${MPIRUN[@]}" "$RING" allreduce 5000 100 8
  run ar64k "${MPIRUN[@]}" "$RING" allreduce 2000 100 65536
  command -v lmp >/dev/null && run lammps "$TOP/tests/apps/launch.sh" lammps "$SCRATCH/lammps" "$NP" 10
done
summary halo "halo_waitall --seconds 2 --n 256"
summary ring "ring: 2000 x (200 us, Sendrecv 64 KiB)"
summary ar8 "allreduce: 5000 x (100 us, Allreduce 8 B)"
summary ar64k "allreduce: 2000 x (100 us, Allreduce 64 KiB)"
[ -s "$SCRATCH/rows.lammps" ] && summary lammps "LAMMPS (Debian's lmp), LJ melt 32000 atoms, 1800 steps"
echo
echo "load average during the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
