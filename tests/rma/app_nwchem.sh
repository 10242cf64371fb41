# rma-check (mode 1) on a real RMA application nobody on the team wrote: Debian's NWChem, whose Global
# Arrays run over ARMCI-MPI (MPI-3 one-sided: Win_allocate, lock_all, Put/Get/Accumulate as
# MPI_REPLACE accumulates, flush_local). One step of B3LYP water MD (tests/apps/launch.sh), 2 ranks.
# The run must finish, every rank's trace must hold its RMA calls (so the checker really saw them),
# and the only findings must be ARMCI-MPI's own pattern: one origin's MPI_SUM of MPI_DOUBLEs then its
# MPI_REPLACE of MPI_BYTEs (ARMCI's put) to the same bytes. MPI orders one origin's accumulates only
# per datatype (MPI-3.1 11.7.2), so those two are reported (docs/rmacheck.md, Ordering); anything
# else is a false race (before the accumulate-ordering rule, same-type pairs were reported too).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../jobsentry_under_test.sh"
APPS=$(cd "$(dirname "$0")/../apps" && pwd)
command -v nwchem.openmpi >/dev/null || { echo "FAIL: nwchem.openmpi missing: run scripts/install-apps.sh" >&2; exit 1; }
WORK=$(mktemp -d /tmp/jobsentry-rma-nwchem.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_btl=self,vader
fail() { echo "FAIL: rma_app_nwchem: $*" >&2; tail -20 "$WORK/err" >&2 || true; exit 1; }

status=0
timeout 500 "$JOBSENTRY" rma-check --report "$WORK/report.json" --trace-dir "$WORK/traces" -- \
  bash "$APPS/launch.sh" nwchem "$WORK/run" 2 5 >"$WORK/out" 2>"$WORK/err" || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 4 ] || fail "rma-check exited $status, expected 0 or 4"
grep -q '^ Total times' "$WORK/run/app.out" || fail "NWChem did not finish its run under rma-check"
jq -e '(.errors | length) == 0 and all(.findings[]; .why == "different basic types" and .a.rank == .b.rank and
      ([.a.basic_type, .b.basic_type] | sort) == ["MPI_BYTE", "MPI_DOUBLE"])' "$WORK/report.json" >/dev/null ||
  fail "the report has other findings than ARMCI-MPI's byte/double accumulates, or errors: $(jq -c '.findings[].line, .errors' "$WORK/report.json")"
jq -e '(.ranks | length) == 2 and all(.ranks[]; .finalized and .rma_calls >= 10000)' "$WORK/report.json" >/dev/null ||
  fail "not both ranks traced with their RMA calls: $(jq -c '.ranks' "$WORK/report.json")"
grep -q '^NOTE mode 1 .*later ones before the next synchronisation are not observed' "$WORK/err" ||
  fail "mode 1 did not say what it could not observe"
# ARMCI-MPI's windows are allocated: watched at the target, in sampled spans, which the report counts.
grep -Eq '^NOTE rank 0: mode 1 watched its window memory at the target in [1-9][0-9]* of [0-9]+ spans' "$WORK/err" ||
  fail "mode 1 did not watch NWChem's windows at the target, or did not say in how many spans"
echo "PASS: NWChem under rma-check: $(jq -c '[.ranks[] | .rma_calls]' "$WORK/report.json") RMA calls, $(jq .races "$WORK/report.json") findings, all ARMCI-MPI's byte/double accumulates"
