# jobsentry-mpicc as a build system uses it: compiling and linking in separate
# steps under -Werror stays silent (the instrumentation option is only passed
# where something is compiled: clang warns on an unused one); the program's
# __asan_* hooks come from libjobsentry-rmacheck-hooks.a (defined in the
# program), its accesses check the module's shadow map inline (no ASan runtime,
# no out-of-line check per access), and a bad JOBSENTRY_MPI is refused naming
# what is accepted.
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
symbols=$(nm "$WORK/p")  # (not `nm | grep -q`: under pipefail, grep's early exit can fail nm)
grep -qE ' T __asan_report_load4_noabort$' <<<"$symbols" || fail "__asan_report_load4_noabort is not defined in the program (the hooks archive was not linked)"
grep -qE ' U __asan_shadow_memory_dynamic_address$' <<<"$symbols" || fail "the program does not read the module's shadow map"
undefined=$(nm -u "$WORK/p" | grep -E '__(asan|tsan)_' | grep -v __asan_shadow_memory_dynamic_address || true)
[ -z "$undefined" ] || fail "left to a sanitizer runtime: $undefined"
# main stores to and loads from its buffers: inline checks, no call per access.
calls=$(objdump -d --no-show-raw-insn "$WORK/p" | sed -n '/<main>:/,/^$/p' | grep -cE 'call.*<__asan_(load|store)' || true)
if [ "$calls" -gt 0 ]; then
  fail "main calls an out-of-line check per access"
fi

status=0
JOBSENTRY_MPI=lam "$WRAPPER" -o "$WORK/q" "$SRC/get_load.c" 2>"$WORK/bad.err" || status=$?
[ "$status" -eq 2 ] || fail "JOBSENTRY_MPI=lam: exit $status, expected 2"
grep -q "JOBSENTRY_MPI='lam': accepted are openmpi and mpich" "$WORK/bad.err" || fail "JOBSENTRY_MPI=lam: no clear error"
rm -f "$WORK"/*.err
echo "jobsentry-mpicc: separate compile and link silent under -Werror, hooks linked, checks inline, bad JOBSENTRY_MPI refused"
