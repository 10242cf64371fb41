# jobsentry-mpicc as a build system uses it: compiling and linking in separate
# steps under -Werror stays silent (the instrumentation option is only passed
# where something is compiled: clang warns on an unused one); the program's
# __tsan_* hooks come from libjobsentry-rmacheck-hooks.a (defined in the
# program, not left to the module), no function entry/exit hooks are called,
# and a bad JOBSENTRY_MPI is refused naming what is accepted.
set -euo pipefail
WRAPPER=${MPICC_WRAPPER:?set by CTest}
SRC=${RMA_SOURCES:?set by CTest}
WORK=$(mktemp -d /tmp/jobsentry-mpicc-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; cat "$WORK"/*.err >&2 2>/dev/null || true; exit 1; }

"$WRAPPER" -O1 -Werror -c -o "$WORK/p.o" "$SRC/get_load.c" 2>"$WORK/compile.err" || fail "compiling failed"
"$WRAPPER" -Werror -o "$WORK/p" "$WORK/p.o" 2>"$WORK/link.err" || fail "linking failed"
[ ! -s "$WORK/compile.err" ] || fail "the compile step printed: $(cat "$WORK/compile.err")"
[ ! -s "$WORK/link.err" ] || fail "the link step printed: $(cat "$WORK/link.err")"
nm "$WORK/p" | grep -qE ' T __tsan_read4$' || fail "__tsan_read4 is not defined in the program (the hooks archive was not linked)"
nm "$WORK/p" | grep -qE ' U jobsentry_rma_filter$' || fail "the program's hooks do not read the module's filter"
if nm "$WORK/p" | grep -q '__tsan_func_entry'; then fail "function entry hooks are still emitted"; fi

status=0
JOBSENTRY_MPI=lam "$WRAPPER" -o "$WORK/q" "$SRC/get_load.c" 2>"$WORK/bad.err" || status=$?
[ "$status" -eq 2 ] || fail "JOBSENTRY_MPI=lam: exit $status, expected 2"
grep -q "JOBSENTRY_MPI='lam': accepted are openmpi and mpich" "$WORK/bad.err" || fail "JOBSENTRY_MPI=lam: no clear error"
rm -f "$WORK"/*.err
echo "jobsentry-mpicc: separate compile and link silent under -Werror, hooks linked, bad JOBSENTRY_MPI refused"
