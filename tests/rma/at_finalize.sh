#!/usr/bin/env bash
# Analysis at MPI_Finalize when asked (JOBSENTRY_RMA_AT_FINALIZE): a racy
# program run under plain mpirun with the preload module prints the findings
# itself (rank 0, after MPI_Finalize) and writes TRACE_DIR/report.json; the
# program's exit status is unchanged. A relative path is refused with a clear
# message and the program still succeeds.
set -euo pipefail
JOBSENTRY=${JOBSENTRY:?set by CTest}
PROGDIR=${RMA_PROGRAMS:?set by CTest}
LIB=$(dirname "$JOBSENTRY")/../lib/libjobsentry-rmacheck.so
WORK=$(mktemp -d /tmp/jobsentry-rma-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
fail() { echo "FAIL: at_finalize: $*" >&2; cat "$WORK"/*.err >&2 || true; exit 1; }
run() {  # run NAME AT_FINALIZE_VALUE
  mkdir "$WORK/$1"
  LD_PRELOAD=$LIB JOBSENTRY_RMA_TRACE_DIR=$WORK/$1 JOBSENTRY_RMA_AT_FINALIZE=$2 \
    timeout 120 mpirun -np 2 "$PROGDIR/rma_get_load" racy >"$WORK/$1.out" 2>"$WORK/$1.err" ||
    fail "$1: mpirun exited $? (the program's own status must be kept)"
}
run asked "$(readlink -f "$JOBSENTRY")"
grep -q "^RACE local get(rank 1, get_load.c:[0-9]*) vs store(rank 1, get_load.c:[0-9]*)" "$WORK/asked.out" ||
  fail "no finding printed at MPI_Finalize"
[ "$(jq '.findings | length' "$WORK/asked/report.json")" -ge 2 ] || fail "report.json has fewer than 2 findings"
run relative jobsentry
grep -q "JOBSENTRY_RMA_AT_FINALIZE must be the absolute path of the jobsentry program, got 'jobsentry'" \
  "$WORK/relative.err" || fail "no clear error for a relative path"
! grep -q "^RACE" "$WORK/relative.out" || fail "analysed despite the refused value"
[ ! -e "$WORK/relative/report.json" ] || fail "report written despite the refused value"
echo "PASS: at_finalize"
