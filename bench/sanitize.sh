#!/usr/bin/env bash
# The sanitizer run of issue #19: builds build-asan/ (scripts/sanitize-build.sh,
# ASan+UBSan) and runs the labels unit, cli and mpi there with the options of
# scripts/sanitize-env.sh (any report aborts its process and fails the test).
# Prints one table row per label; checks first that the modules loaded into
# other programs carry no sanitizer references. Not in CI: its budget is full.
#   nice -n 19 bash bench/sanitize.sh [LABEL...]      (JOBS=N for the build)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${ASAN_BUILD:-$top/build-asan}
labels=("$@")
[ ${#labels[@]} -gt 0 ] || labels=(unit cli mpi)

b0=$(date +%s)
JOBS=${JOBS:-1} bash "$top/scripts/sanitize-build.sh" >"$build.log" 2>&1 || { tail -30 "$build.log" >&2; exit 1; }
b1=$(date +%s)

# The plugin, the preload modules and libjobsentry_ckpt must load into
# uninstrumented programs: no __asan_/__ubsan_ symbol may be undefined in them.
for m in lib/jobsentry.so lib/libjobsentry-rmacheck.so lib/libjobsentry-rmacheck-mpich.so \
         lib/libjobsentry_ckpt.so lib/libjobsentry_ckpt_mpich.so; do
  [ -f "$build/$m" ] || continue
  if nm -D --undefined-only "$build/$m" | contains '__[au][sb]san_'; then
    echo "$m references the sanitizer runtime: it would not load into slurmstepd/mpirun" >&2; exit 1
  fi
done

. "$top/scripts/sanitize-env.sh"
. "$top/tests/contains.sh"
echo "build: $((b1 - b0)) s (JOBS=${JOBS:-1}); ASAN_OPTIONS=$ASAN_OPTIONS UBSAN_OPTIONS=$UBSAN_OPTIONS"
echo
echo "| label | tests | passed | time (s) |"
echo "|---|---|---|---|"
status=0
for l in "${labels[@]}"; do
  log=$build/ctest-$l.log
  t0=$(date +%s)
  ctest --test-dir "$build" -L "^$l\$" --output-on-failure >"$log" 2>&1 || status=1
  t1=$(date +%s)
  # "93% tests passed, 2 tests failed out of 30"
  line=$(grep -E 'tests passed, [0-9]+ tests? failed out of' "$log" || echo "0% tests passed, 0 tests failed out of 0")
  total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
  failed=$(sed -E 's/.*passed, ([0-9]+) tests? failed.*/\1/' <<<"$line")
  echo "| $l | $total | $((total - failed)) | $((t1 - t0)) |"
done
exit $status
