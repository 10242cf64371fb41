# A real hang (bug class 2 without the 1-s give-up): rank 1 spins on a Get's
# buffer forever. jobsentry rma-check is ended with SIGTERM once it spins, passes
# it on to mpirun, the ranks write their traces on the way out, and the
# finding names both lines; the status is the killed job's (not 0, not 4).
set -euo pipefail
JOBSENTRY=${JOBSENTRY:?set by CTest}
PROGDIR=${RMA_PROGRAMS:?set by CTest}
SRC=$(cd "$(dirname "$0")" && pwd)/get_hang.c
WORK=$(mktemp -d /tmp/jobsentry-rma-test.XXXXXX)
trap 'kill -KILL $pid 2>/dev/null || true; rm -rf "$WORK"' EXIT
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_btl=self,vader
fail() { echo "FAIL: $*" >&2; cat "$WORK/out" >&2 || true; exit 1; }

"$JOBSENTRY" rma-check --trace-dir "$WORK/t" -- mpirun --oversubscribe -np 2 "$PROGDIR/rma_get_hang" hang \
  >"$WORK/out" 2>&1 &
pid=$!
# Killed once rank 1 spins (a fixed 3 s was too short on a loaded machine:
# SIGTERM came before the rank's tracing had started, and its trace was empty).
for _ in $(seq 300); do grep -q "rank 1 spins" "$WORK/out" 2>/dev/null && break; sleep 0.1; done
grep -q "rank 1 spins" "$WORK/out" || fail "rank 1 did not start spinning within 30 s"
sleep 0.5
kill -0 $pid 2>/dev/null || fail "the hanging job ended by itself"
kill -TERM $pid
status=0
wait $pid || status=$?
[ "$status" -ne 0 ] && [ "$status" -ne 4 ] || fail "status $status: expected the killed job's"
get=$(grep -n 'MPI_Get(&flag' "$SRC" | head -1 | cut -d: -f1)
spin=$(grep -n 'while (flag == 0' "$SRC" | head -1 | cut -d: -f1)
grep -Eq "^RACE local get\(rank 1, get_hang.c:$get\) vs load\(rank 1, get_hang.c:$spin\)" "$WORK/out" ||
  fail "the hang's race was not reported"
echo "PASS: a killed hang is still analysed"
