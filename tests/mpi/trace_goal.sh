#!/usr/bin/env bash
# jobsentry trace, trace-to-goal and simulate --goal on a real job: the halo
# exchange program (Irecv/Isend/Waitall on a Cartesian communicator, an
# Allreduce every 5 iterations) under a real launcher with 2 ranks, 1 s of a 512 x 512
# grid (about 100,000 GOAL lines: a 128 x 128 grid for 2 s made 2.8 million, and
# reading them, here and in their 8-rank copy, took 20 of the test's 21 s; the
# tracer's cost on a busy code is bench/trace_overhead.sh's).
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
"$JOBSENTRY" trace --trace-dir "$WORK/t" -- "${MPIEXEC[@]}" "$PROGRAM" --seconds 1 --n 512 \
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

# --scale: two ranks of a 2-D halo are no ring or chain (said, exit 2); LogGOPSim's replicate
# rule makes 4 copies; a ring traced at 3 ranks carries to 64 and still simulates.
status=0
"$JOBSENTRY" trace-to-goal "$WORK/t" --scale 16 -o "$WORK/x.goal" 2>"$WORK/x.err" || status=$?
[ "$status" -eq 2 ] && grep -q "cannot extrapolate to 16 ranks: .*trace more ranks, or use --scale-rule replicate" \
  "$WORK/x.err" || { cat "$WORK/x.err" >&2; fail "a 2-rank halo was not refused by --scale (exit $status)"; }
"$JOBSENTRY" trace-to-goal "$WORK/t" --scale 8 --scale-rule replicate -o "$WORK/x.goal" ||
  fail "--scale-rule replicate failed"
grep -q "^num_ranks 8$" "$WORK/x.goal" && grep -q "^// extrapolated from 2 to 8 ranks (--scale-rule replicate)" \
  "$WORK/x.goal" || fail "the replicated GOAL is not 8 ranks or does not say so"
"$JOBSENTRY" simulate --goal "$WORK/x.goal" --params "$WORK/params.json" >/dev/null || fail "the copies do not simulate"
case ${MPI_IMPL:-openmpi} in
  openmpi) RING=(mpirun --oversubscribe -np 3) ;;
  mpich) RING=(mpiexec.mpich -n 3) ;;
esac
"$JOBSENTRY" trace --trace-dir "$WORK/r" -- "${RING[@]}" "$RING_PROGRAM" ring 300 50 1024 >"$WORK/ring.out" 2>&1 ||
  { cat "$WORK/ring.out" >&2; fail "jobsentry trace of the ring failed"; }
"$JOBSENTRY" trace-to-goal "$WORK/r" --scale 64 -o "$WORK/ring.goal" 2>"$WORK/ring.err" ||
  { cat "$WORK/ring.err" >&2; fail "the 3-rank ring does not extrapolate to 64"; }
grep -q "^// extrapolated from 3 to 64 ranks (--scale-rule offsets): a ring" "$WORK/ring.goal" ||
  fail "the ring was not recognised as one"
grep -q "^l[0-9]*: send 1024b to 0 tag" <(sed -n '/^rank 63 {/,/^}/p' "$WORK/ring.goal") ||
  fail "rank 63 of 64 does not send to rank 0"
"$JOBSENTRY" simulate --goal "$WORK/ring.goal" --params "$WORK/params.json" --json >"$WORK/ring.json" ||
  fail "the extrapolated ring does not simulate"
python3 - "$WORK/ring.goal" "$WORK/ring.json" <<'PY' || fail "the extrapolated ring's makespan is not sane"
import json, re, sys
goal = open(sys.argv[1]).read()
makespan = json.load(open(sys.argv[2]))["makespan_ns"]
traced = int(re.search(r"traced region: (\d+) ns", goal).group(1))
# 300 iterations of at least 50 us of work each; weak scaling keeps it near the traced time.
print(f"ring 3 -> 64 ranks: traced {traced} ns, predicted {makespan} ns ({makespan / traced:.2f})")
assert 300 * 50000 <= makespan <= 2 * traced, (makespan, traced)
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
