#!/usr/bin/env bash
# jobsentry trace, trace-to-goal and simulate --goal on a real job: the halo
# exchange program (Irecv/Isend/Waitall on a Cartesian communicator, an
# Allreduce every 5 iterations) under a real launcher with 2 ranks, about 2 s.
# Checks: one trace per rank, a GOAL the simulator reads, a makespan between
# the longest rank's compute and twice the traced wall time; then a rank's
# file cut short is named with its offset, left out, said in the GOAL, and the
# other rank still converts. Then every recorded call (trace_calls, 3 ranks: any
# source and tag, MPI_PROC_NULL, every Wait/Test form, the eight collectives, a
# reordered communicator freed with a receive pending) must give a schedule
# that simulates without deadlock: every message found its match.
# PROGRAM, CALLS_PROGRAM: the halo_waitall and trace_calls builds of the MPI under test.
. "$(dirname "$0")/lib.sh"
PROGRAM=${PROGRAM:?set by CTest}
CALLS_PROGRAM=${CALLS_PROGRAM:?set by CTest}
NP=2
case ${MPI_IMPL:-openmpi} in
  openmpi) MPIEXEC=(mpirun --oversubscribe -np "$NP") ;;
  mpich) MPIEXEC=(mpiexec.mpich -n "$NP") ;;
esac
start=$(date +%s.%N)
"$JOBSENTRY" trace --trace-dir "$WORK/t" -- "${MPIEXEC[@]}" "$PROGRAM" --seconds 2 --n 128 \
  >"$WORK/trace.out" 2>"$WORK/trace.err" || { cat "$WORK/trace.err" >&2; fail "jobsentry trace failed"; }
grep -q '^OK ' "$WORK/trace.out" || fail "the program's result changed under the tracer"
[ -s "$WORK/t/rank-0.jstrace" ] && [ -s "$WORK/t/rank-1.jstrace" ] || fail "not one trace per rank"

"$JOBSENTRY" trace-to-goal "$WORK/t" -o "$WORK/app.goal" 2>"$WORK/goal.err" ||
  { cat "$WORK/goal.err" >&2; fail "trace-to-goal failed"; }
grep -q 'irequires' "$WORK/app.goal" || fail "no nonblocking op in the GOAL"
grep -q 'calc ' "$WORK/app.goal" || fail "no compute in the GOAL"
grep -q 'tag 1073741824' "$WORK/app.goal" || fail "the Allreduce was not expanded"

# Given parameters for shared memory (a real measurement: tests/mpi/loggp.sh).
echo '{"L": 300, "o": 400, "g": 400, "G": 0.1, "O": 0.05, "S": 65536}' >"$WORK/params.json"
"$JOBSENTRY" simulate --goal "$WORK/app.goal" --params "$WORK/params.json" --json >"$WORK/sim.json" ||
  fail "simulate --goal refused the traced schedule"
python3 - "$WORK/app.goal" "$WORK/sim.json" <<'PY' || fail "the makespan is not sane"
import json, re, sys
goal = open(sys.argv[1]).read()
makespan = json.load(open(sys.argv[2]))["makespan_ns"]
traced = int(re.search(r"traced region: (\d+) ns", goal).group(1))
calc = {}
rank = None
for line in goal.splitlines():
  m = re.match(r"rank (\d+) \{", line)
  if m: rank = int(m.group(1))
  m = re.match(r"l\d+: calc (\d+)", line)
  if m: calc[rank] = calc.get(rank, 0) + int(m.group(1))
compute = max(calc.values())
print(f"traced {traced} ns, predicted {makespan} ns ({makespan / traced:.2f}), longest compute {compute} ns")
assert compute <= makespan <= 2 * traced, (compute, makespan, traced)
PY

# Rank 1's file cut short: it ends 23 bytes into its trailer.
truncate -s -17 "$WORK/t/rank-1.jstrace"
status=0
"$JOBSENTRY" trace-to-goal "$WORK/t" -o "$WORK/cut.goal" 2>"$WORK/cut.err" || status=$?
[ "$status" -eq 3 ] || fail "trace-to-goal exited $status for a cut file, expected 3"
grep -Eq "rank-1.jstrace: offset [0-9]+: expected a 40-byte record, found only 23 bytes \(the file is truncated\)" \
  "$WORK/cut.err" || { cat "$WORK/cut.err" >&2; fail "the cut file is not named with its offset"; }
grep -q "^// rank 1 left out (no ops): .*rank-1.jstrace: offset [0-9]*: expected a 40-byte record" "$WORK/cut.goal" ||
  fail "the GOAL does not say rank 1 was left out"
grep -q "^// [0-9]* messages to or from left-out ranks dropped" "$WORK/cut.goal" || fail "dropped messages not said"
"$JOBSENTRY" simulate --goal "$WORK/cut.goal" --params "$WORK/params.json" >/dev/null ||
  fail "the rest of the job does not simulate"
case ${MPI_IMPL:-openmpi} in
  openmpi) MPIEXEC=(mpirun --oversubscribe -np 3) ;;
  mpich) MPIEXEC=(mpiexec.mpich -n 3) ;;
esac
"$JOBSENTRY" trace --trace-dir "$WORK/c" -- "${MPIEXEC[@]}" "$CALLS_PROGRAM" >"$WORK/calls.out" 2>"$WORK/calls.err" ||
  { cat "$WORK/calls.err" >&2; fail "jobsentry trace of trace_calls failed"; }
grep -q '^OK' "$WORK/calls.out" || fail "trace_calls did not print OK"
"$JOBSENTRY" trace-to-goal "$WORK/c" -o "$WORK/calls.goal" 2>"$WORK/calls.err" ||
  { cat "$WORK/calls.err" >&2; fail "trace-to-goal of trace_calls failed"; }
grep -q "^// 2 MPI_Ssends simulated as standard sends" "$WORK/calls.goal" || fail "the Ssends are not noted"
"$JOBSENTRY" simulate --goal "$WORK/calls.goal" --params "$WORK/params.json" >"$WORK/calls.sim" 2>&1 ||
  { cat "$WORK/calls.sim" >&2; fail "the schedule of every recorded call does not simulate"; }
pass "trace, trace-to-goal, simulate ($(cat "$WORK/sim.json" | jq -c '{makespan_ns}')) in $(echo "$(date +%s.%N) - $start" | bc) s"
