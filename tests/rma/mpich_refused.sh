#!/usr/bin/env bash
# rma-check told the wrong MPI (--mpi openmpi on an MPICH program): the Open MPI
# module takes Open MPI's handles. It must say so plainly and name the right
# --mpi, leave the program to run as without it (no crash), and exit 1:
# nothing was checked, which must never read as "no race".
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../jobsentry_under_test.sh"
PROG=${RMA_PUT_PUT_MPICH:?set by CTest}
WORK=$(mktemp -d /tmp/jobsentry-rma-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; cat "$WORK"/run.* >&2; exit 1; }
status=0
timeout 120 "$JOBSENTRY" rma-check --mpi openmpi --trace-dir "$WORK/traces" -- mpiexec.mpich -n 3 "$PROG" racy \
  >"$WORK/run.out" 2>"$WORK/run.err" || status=$?
[ "$status" -eq 1 ] || fail "rma-check exited $status, expected 1 (nothing checked)"
grep -q "this program runs libmpich.so.12, but the preloaded libjobsentry-rmacheck.so is built for Open MPI.*Run rma-check with --mpi mpich" "$WORK/run.err" ||
  fail "no plain message about MPICH"
[ "$(grep -c "is built for Open MPI" "$WORK/run.err")" -eq 1 ] || fail "the message is not printed once per job"
grep -q "no trace files" "$WORK/run.err" || fail "the analysis did not say that there is no trace"
grep -q "^0 races found in 0 ranks" "$WORK/run.err" || fail "the summary is not '0 races found in 0 ranks'"
echo "PASS: MPICH program under rma-check --mpi openmpi: one plain message, no trace, exit 1"
