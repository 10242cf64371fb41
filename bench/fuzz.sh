#!/usr/bin/env bash
# Runs every fuzz target of tests/fuzz long, one after another: RUNS
# executions each (default 10^6), over its seeds, with ASan+UBSan and leak
# detection; any crash, leak or sanitizer report fails the target (its input
# is saved as bench-out/fuzz/<target>-crash-*). Prints the table of
# docs/fuzzing.md (markdown) on stdout; the logs stay in bench-out/fuzz/.
#   bash bench/fuzz.sh [TARGET...]      e.g. RUNS=300000 bash bench/fuzz.sh fuzz_wire
# MAX_SECONDS caps each target's time (0: no cap). Each run starts from the
# seeds alone (its corpus in build-fuzz/fuzz-long/<target>/ is emptied first).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD:-$top/build-fuzz}
runs=${RUNS:-1000000}
max_seconds=${MAX_SECONDS:-0}
out=$top/bench-out/fuzz
bash "$top/scripts/fuzz-build.sh" >&2
mkdir -p "$out"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cd "$top/tests/fuzz" && ls fuzz_*.cpp | sed 's/\.cpp$//')

# The last value of a libFuzzer status field ("cov: 123") in a log.
field() { grep -o "$1: [0-9]*" "$2" | tail -1 | awk '{print $2}'; }

failed=0
echo "| target | executions | time (s) | exec/s | corpus (inputs/bytes) | cov | ft | result |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for t in "${targets[@]}"; do
  work=$build/fuzz-long/$t
  rm -rf "$work" && mkdir -p "$work"
  log=$out/$t.log
  start=$(date +%s.%N)
  rc=0
  "$build/tests/fuzz/$t" -runs="$runs" -max_total_time="$max_seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=64 \
    -print_final_stats=1 -artifact_prefix="$out/$t-" "$work" "$top/tests/fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  execs=$(grep -o 'number_of_executed_units: [0-9]*' "$log" | awk '{print $2}')
  execs=${execs:-$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')}
  result="ok"
  if [ $rc -ne 0 ] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|fuzz check failed' "$log"; then
    result="FAILED (exit $rc, see $log)"
    failed=1
  fi
  printf '| %s | %s | %.0f | %.0f | %s | %s | %s | %s |\n' "$t" "${execs:-0}" "$secs" \
    "$(echo "${execs:-0} / $secs" | bc -l)" "$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -1 | cut -d' ' -f2)" "$(field cov "$log")" "$(field ft "$log")" "$result"
done
exit $failed
