# rma-report on damaged input: a truncated rank file and a foreign file are
# named with file and offset, and the other ranks' traces are still analysed
# (the race between ranks 0 and 2 of put_put is still found). Also CLI misuse,
# a command without MPI and an MPI program without RMA (empty report).
set -euo pipefail
JOBSENTRY=${JOBSENTRY:?set by CTest}
PROGDIR=${RMA_PROGRAMS:?set by CTest}
WORK=$(mktemp -d /tmp/jobsentry-rma-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_btl=self,vader
fail() { echo "FAIL: $*" >&2; cat "$WORK"/*.err >&2 || true; exit 1; }

status=0
"$JOBSENTRY" rma-check --trace-dir "$WORK/t" -- mpirun --oversubscribe -np 3 "$PROGDIR/rma_put_put" racy \
  >/dev/null 2>"$WORK/check.err" || status=$?
[ "$status" -eq 4 ] || fail "rma-check exited $status, expected 4"

# Cut rank 1's file in the middle of a record; add a file that is not a trace.
size=$(stat -c %s "$WORK/t/rank-1.jsrma")
truncate -s $((size - 7)) "$WORK/t/rank-1.jsrma"
echo "not a trace" >"$WORK/t/rank-3.jsrma"
status=0
"$JOBSENTRY" rma-report --report "$WORK/r.json" "$WORK/t" >"$WORK/report.out" 2>"$WORK/report.err" || status=$?
[ "$status" -eq 4 ] || fail "rma-report exited $status, expected 4 (the race of ranks 0 and 2)"
grep -Eq "error: $WORK/t/rank-1.jsrma: offset [0-9]+: truncated record" "$WORK/report.err" ||
  fail "no error naming rank-1.jsrma and the offset"
grep -q "error: $WORK/t/rank-3.jsrma: offset 0: not a jobsentry RMA trace" "$WORK/report.err" ||
  fail "no error naming the foreign file"
grep -q "^RACE remote put(rank 0, put_put.c:[0-9]*) vs put(rank 2, put_put.c:[0-9]*)" "$WORK/report.out" ||
  fail "the other ranks were not analysed"
jq -e '.errors | length == 2' "$WORK/r.json" >/dev/null || fail "the JSON report does not list both errors"

# Misuse: exit 2 with a message saying what is accepted.
status=0
"$JOBSENTRY" rma-report "$WORK/nonexistent" 2>"$WORK/m1.err" || status=$?
[ "$status" -eq 2 ] && grep -q "is not a directory" "$WORK/m1.err" || fail "missing directory: status $status"
status=0
"$JOBSENTRY" rma-check --bogus -- true 2>"$WORK/m2.err" || status=$?
[ "$status" -eq 2 ] && grep -q "unrecognised option\|unrecognized option" "$WORK/m2.err" || fail "bad option: $status"
status=0
"$JOBSENTRY" rma-check 2>"$WORK/m3.err" || status=$?
[ "$status" -eq 2 ] && grep -q "no program given" "$WORK/m3.err" || fail "no command: status $status"
# A program without MPI: its own exit status, no traces, no crash.
status=0
"$JOBSENTRY" rma-check --trace-dir "$WORK/n" -- sh -c 'exit 3' 2>"$WORK/n.err" || status=$?
[ "$status" -eq 3 ] || fail "a plain command's status was not passed through ($status)"
# An MPI program without RMA: traced, an empty report, exit 0.
status=0
"$JOBSENTRY" rma-check --trace-dir "$WORK/p" --report "$WORK/p.json" -- \
  mpirun --oversubscribe -np 2 "${HANGPROG:?set by CTest}" --iterations 20 >/dev/null 2>"$WORK/p.err" || status=$?
[ "$status" -eq 0 ] || fail "a program without RMA exited $status under rma-check"
jq -e '.races == 0 and (.ranks | length) == 2 and ([.ranks[].rma_calls] | add) == 0' "$WORK/p.json" >/dev/null ||
  fail "a program without RMA did not give an empty report of 2 ranks"
echo "PASS: damaged traces, misuse, programs without RMA or MPI"
