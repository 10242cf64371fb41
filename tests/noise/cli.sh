#!/usr/bin/env bash
# `jobsentry noise`: bad input exits 2 with a message naming what was wrong,
# before any measurement (a 60 s run refused within 3 s, nothing on stdout);
# a good short run writes the table, the JSON and the traces.
set -euo pipefail
. "$(dirname "$0")/../contains.sh"
JOBSENTRY=${JOBSENTRY:?set by CTest}
WORK=$(mktemp -d /tmp/jobsentry-noise-cli.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

expect_refused() {  # expect_refused PATTERN ARGS...
  local pattern=$1; shift
  local status=0 start end long=(--duration 60s)
  [[ " $* " == *" --duration"* ]] && long=()
  start=$(date +%s%N)
  "$JOBSENTRY" noise "${long[@]}" "$@" >"$WORK/out" 2>"$WORK/err" || status=$?
  end=$(date +%s%N)
  [ "$status" -eq 2 ] || fail "jobsentry noise $* exited $status, expected 2"
  grep -q -- "$pattern" "$WORK/err" || { cat "$WORK/err" >&2; fail "jobsentry noise $*: message lacks '$pattern'"; }
  [ ! -s "$WORK/out" ] || fail "jobsentry noise $*: printed results although the input was bad"
  [ $(( (end - start) / 1000000 )) -lt 3000 ] || fail "jobsentry noise $*: took over 3 s, so it measured first"
}

last_pu=$(( $(getconf _NPROCESSORS_CONF) - 1 ))
expect_refused "PU 4096 does not exist on this machine" --cpus 4096
expect_refused "'x' is not a PU number or range" --cpus 0,x
expect_refused "accepted: 'all' or a list" --cpus ""
expect_refused "--duration 0s: accepted values are durations above 0" --duration 0s
expect_refused "--duration -5s: accepted values" --duration=-5s
expect_refused "with a unit" --duration 5
expect_refused "--threshold-ns -1: accepted values" --threshold-ns -1
expect_refused "--clock hpet: accepted values are auto, tsc, monotonic" --clock hpet
expect_refused "--predict-procs 1,64: accepted values are process counts 2..16777216" --predict --predict-procs 1,64
expect_refused "--predict-goal is used by --predict: give --predict as well" --predict-goal "$WORK/app.goal"
expect_refused "--predict-goal $WORK/none.goal: cannot be read" --predict --predict-goal "$WORK/none.goal"
echo '{"latency": 3}' >"$WORK/bad-params.json"
expect_refused '--predict-params: .*unknown key "latency"' --predict --predict-params "$WORK/bad-params.json"
expect_refused "frobnicate" --frobnicate
expect_refused "--json $WORK/missing/r.json: cannot be written" --json "$WORK/missing/r.json"
expect_refused "--json $WORK: is a directory" --json "$WORK"
touch "$WORK/file"
expect_refused "--trace-dir $WORK/file: is not a directory" --trace-dir "$WORK/file"
expect_refused "--trace-dir $WORK/no/such: cannot be created" --trace-dir "$WORK/no/such"
# A PU that exists but lies outside the process's allowed set (taskset narrows it).
if [ "$last_pu" -gt 0 ]; then
  status=0
  taskset -c 0 "$JOBSENTRY" noise --cpus "$last_pu" --duration 60s >"$WORK/out" 2>"$WORK/err" || status=$?
  [ "$status" -eq 2 ] || fail "--cpus $last_pu outside the allowed set 0 exited $status, expected 2"
  grep -q "PU $last_pu is outside the set this process may run on (0)" "$WORK/err" || { cat "$WORK/err" >&2; fail "no allowed-set message"; }
fi
[ ! -e "$WORK/r.json" ] || fail "a refused run left a JSON file"

# A good run: 300 ms on PU 0, every output written.
"$JOBSENTRY" noise --cpus 0 --duration 300ms --json "$WORK/r.json" --trace-dir "$WORK/traces" >"$WORK/out" \
  || fail "a good run failed"
grep -q "noise_%" "$WORK/out" || fail "no table on stdout"
jq -e '.pus | length == 1' "$WORK/r.json" >/dev/null || fail "JSON does not hold one object for the one PU"
for key in cpu resolution_ns noise_percent detours max_detour_ns frequency_hz median_detour_ns p99_detour_ns histogram; do
  jq -e ".pus[0] | has(\"$key\")" "$WORK/r.json" >/dev/null || fail "JSON lacks $key"
done
jq -e '.pus[0].cpu == 0 and .pus[0].resolution_ns > 0 and .pus[0].measured_ns > 250000000' "$WORK/r.json" >/dev/null \
  || fail "JSON figures implausible: $(jq -c '.pus[0] | del(.histogram)' "$WORK/r.json")"
detours=$(jq '.pus[0].detours' "$WORK/r.json")
# The period is the measured span, or the end of the last detour where the
# iteration that straddled the span's end ran past it (noise_report.cpp).
period=$(jq '.pus[0].measured_ns' "$WORK/r.json")
last_end=$(grep -v '^#' "$WORK/traces/cpu0.tsv" | awk -F'\t' '{e = $1 + $2; if (e > m) m = e} END {printf "%.0f", m}')
[ "${last_end:-0}" -gt "$period" ] && period=$last_end
[ "$(head -1 "$WORK/traces/cpu0.tsv")" = "# period_ns $period" ] ||
  fail "the trace does not open with '# period_ns' and max(measured span, last detour's end) $period: $(head -1 "$WORK/traces/cpu0.tsv")"
[ "$(grep -vc '^#' "$WORK/traces/cpu0.tsv")" -eq "$detours" ] || fail "trace lines != detours ($detours)"
if [ "$detours" -gt 0 ]; then
  grep -v '^#' "$WORK/traces/cpu0.tsv" | contains -vP '^\d+\t\d+$' && fail "trace lines are not start_ns<TAB>duration_ns"
  max=$(grep -v '^#' "$WORK/traces/cpu0.tsv" | cut -f2 | sort -n | tail -1)
  [ "$max" -eq "$(jq '.pus[0].max_detour_ns' "$WORK/r.json")" ] || fail "trace max $max != max_detour_ns"
fi
# The trace is what the LogGOPS simulator reads (issue: probe -> simulate).
"$JOBSENTRY" simulate --collective dissemination --procs 64 --bytes 8 --noise-trace "$WORK/traces/cpu0.tsv" --json \
  >"$WORK/sim.json" || fail "jobsentry simulate refused the probe's trace: $(cat "$WORK/sim.json")"
jq -e '.slowdown >= 1 and .makespan_ns >= .noise_free_makespan_ns' "$WORK/sim.json" >/dev/null ||
  fail "simulating with the probe's trace gave $(cat "$WORK/sim.json")"
# --predict: the noisiest PU's trace through the simulator, in the report.
"$JOBSENTRY" noise --cpus 0 --duration 300ms --predict --predict-procs 64,256 --json "$WORK/p.json" >"$WORK/out" ||
  fail "a --predict run failed"
jq -e '.predicted_slowdown.cpu == 0 and (.predicted_slowdown.predictions | length) == 4 and
       all(.predicted_slowdown.predictions[]; .slowdown >= 1 and (.procs == 64 or .procs == 256))' "$WORK/p.json" \
  >/dev/null || fail "--predict report: $(jq -c .predicted_slowdown "$WORK/p.json")"
grep -q "predicted slowdown with the noise of PU 0" "$WORK/out" || fail "--predict prints no table"
# --predict-goal: an application's schedule (two ranks, 1 ms of compute, a message) with given
# parameters; a schedule that deadlocks is named in its row, and the rest is still predicted.
printf 'num_ranks 2\nrank 0 {\nl1: calc 1000000\nl2: send 8b to 1 tag 1\nl2 requires l1\n}\nrank 1 {\nl1: recv 8b from 0 tag 1\n}\n' \
  >"$WORK/app.goal"
printf 'num_ranks 2\nrank 0 {\nl1: recv 8b from 1 tag 1\n}\nrank 1 {\nl1: recv 8b from 0 tag 1\n}\n' >"$WORK/stuck.goal"
echo '{"L": 300, "o": 400, "g": 400, "G": 0.1, "O": 0.05}' >"$WORK/params.json"
"$JOBSENTRY" noise --cpus 0 --duration 300ms --predict --predict-procs 64 --predict-goal "$WORK/app.goal" \
  --predict-goal "$WORK/stuck.goal" --predict-params "$WORK/params.json" --json "$WORK/g.json" >"$WORK/out" ||
  fail "a --predict-goal run failed"
jq -e --arg app "$WORK/app.goal" --arg stuck "$WORK/stuck.goal" '.predicted_slowdown.params.L == 300 and
  (.predicted_slowdown.predictions | length) == 4 and
  (.predicted_slowdown.predictions[2] | .application == $app and .procs == 2 and .slowdown >= 1 and
     .noise_free_makespan_ns >= 1000000) and
  (.predicted_slowdown.predictions[3] | .application == $stuck and (.error | length) > 0)' "$WORK/g.json" >/dev/null ||
  fail "--predict-goal report: $(jq -c .predicted_slowdown "$WORK/g.json")"
grep -q "app.goal .* 2 processes  x" "$WORK/out" && grep -q "stuck.goal  cannot be predicted: " "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "--predict-goal rows missing from the table"; }
# The clock_gettime fallback, forced.
"$JOBSENTRY" noise --cpus 0 --duration 200ms --clock monotonic --json "$WORK/mono.json" >/dev/null \
  || fail "a --clock monotonic run failed"
jq -e '.clock == "clock_gettime" and .pus[0].resolution_ns > 0 and .pus[0].measured_ns > 150000000' \
  "$WORK/mono.json" >/dev/null || fail "--clock monotonic: $(jq -c '.pus[0] | del(.histogram)' "$WORK/mono.json")"
jq -e '.clock == "tsc" or .clock == "clock_gettime"' "$WORK/r.json" >/dev/null || fail "JSON lacks the clock"

# A full buffer ends the PU's run early and says so: a 1 ns threshold makes
# every iteration a detour, so 1000 fill within microseconds of a 5 s run.
start=$(date +%s)
"$JOBSENTRY" noise --cpus 0 --duration 5s --threshold-ns 1 --max-detours 1000 --json "$WORK/full.json" >"$WORK/out" \
  || fail "a run with a full buffer failed"
[ $(( $(date +%s) - start )) -lt 4 ] || fail "a full buffer did not end the run early"
jq -e '.pus[0].buffer_full == true and .pus[0].detours == 1000 and .pus[0].measured_ns < 1000000000' "$WORK/full.json" \
  >/dev/null || fail "full buffer not reported: $(jq -c '.pus[0] | del(.histogram)' "$WORK/full.json")"
grep -q "the detour buffer filled" "$WORK/out" || fail "the table does not say the buffer filled"
# The measurement loop makes no system call: a 1.5 s run makes as many as a
# 0.2 s one (a loop that made even one call per million iterations would add
# hundreds). The rest (hwloc's topology load, threads) is the same for both.
# LeakSanitizer stops the process's threads with ptrace at exit, which fails
# under strace (a sanitizer build, docs/hardening.md): no leak check here.
syscalls() {
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    strace -f -c -o "$WORK/strace.txt" "$JOBSENTRY" noise --cpus 0 --duration "$1" >/dev/null ||
    fail "jobsentry noise --duration $1 under strace failed"
  awk '$NF == "total" {print $4 + 0}' "$WORK/strace.txt"
}
short=$(syscalls 200ms); long=$(syscalls 1500ms)
[ $((long - short)) -le 20 ] || fail "system calls grow with the duration: $short in 0.2 s, $long in 1.5 s"

"$JOBSENTRY" noise --help | contains -- "--threshold-ns" || fail "--help lacks options"
echo "PASS: jobsentry noise refuses bad input before measuring and writes table, JSON and traces"
