#!/usr/bin/env bash
# The stop-and-detach path: stacks unwound after the thread is let go still
# reach the program's start; after thousands of samples, and after the sampler
# is killed with SIGTERM in the middle of sampling, no target is left stopped
# or traced; a process stopped by SIGSTOP before sampling stays stopped (by
# its signal, not by us) and resumes on SIGCONT.
. "$(dirname "$0")/lib.sh"
state() { awk '/^State:/ {print $2}' "/proc/$1/status"; }
tracer() { awk '/^TracerPid:/ {print $2}' "/proc/$1/status"; }
check_free() {  # check_free PID EXPECTED_STATES
  local s t
  s=$(state "$1"); t=$(tracer "$1")
  [ "$t" = 0 ] || fail "pid $1 still traced by $t"
  case "$2" in *"$s"*) ;; *) fail "pid $1 in state $s, expected one of $2" ;; esac
}
# A busy process with helper threads (an MPI rank) and a sleeping one.
mpirun --oversubscribe -np 2 "$HANGPROG" --seconds 60 --pid-dir "$WORK" >/dev/null 2>&1 &
mpirun_pid=$!
sleep 300 & sleeper=$!
for _ in $(seq 100); do [ -s "$WORK/rank.0" ] && break; sleep 0.1; done
rank=$(cat "$WORK/rank.0")

# The unwind runs on a copy of the registers and the stack, after the thread is let go
# (src/hang/sampler/stack_snapshot.h): it must still reach the start of the program, through libc.
out=$("$JOBSENTRY" sample --count 20 --pause-ms 5 "$sleeper") || fail "sampling a sleeper failed"
grep -q "nanosleep" <<<"$out" && grep -q "__libc_start_main" <<<"$out" ||
  fail "the sleeper's stack is not sleep's from nanosleep to __libc_start_main: $out"
out=$("$JOBSENTRY" sample --count 20 --pause-ms 5 "$rank") || fail "sampling a rank failed"
grep -q "__libc_start_main" <<<"$out" || fail "the rank's stack does not reach __libc_start_main: $out"
grep -q "held_us median" <<<"$out" || fail "jobsentry sample printed no held time: $out"

# A stack deeper than the first copy (tests/programs/deep_stack.c, 41 frames of 32 KB): an unwind
# ends where the copy ends instead of reading the running stack beyond it, and once the copy has
# grown the whole stack is there, down to main.
"${DEEP_STACK:?set by CTest}" >"$WORK/deep.out" & deep=$!
for _ in $(seq 100); do grep -q bottom "$WORK/deep.out" && break; sleep 0.1; done
out=$("$JOBSENTRY" sample --count 10 --pause-ms 5 "$deep") || fail "sampling the deep stack failed"
[ "$(grep -c "descend" <<<"$out")" -ge 41 ] && grep -q __libc_start_main <<<"$out" ||
  fail "the deep stack's last sample lacks frames of descend or __libc_start_main: $out"
kill "$deep"

"$JOBSENTRY" sample --count 2000 --pause-ms 0 "$rank" >/dev/null || fail "sampling a rank failed"
check_free "$rank" "RS"
"$JOBSENTRY" sample --count 2000 --pause-ms 0 "$sleeper" >/dev/null || fail "sampling a sleeper failed"
check_free "$sleeper" "S"

for target in "$rank" "$sleeper"; do
  for _ in 1 2 3 4 5; do
    "$JOBSENTRY" sample --count 100000 --pause-ms 0 "$target" >/dev/null 2>&1 &
    sampler=$!
    sleep 0.$((RANDOM % 5 + 1))
    kill -TERM "$sampler"; wait "$sampler" 2>/dev/null || true
    check_free "$target" "RS"
  done
done

kill -STOP "$sleeper"
"$JOBSENTRY" sample --count 200 --pause-ms 0 "$sleeper" >/dev/null || fail "sampling a stopped process failed"
check_free "$sleeper" "T"
kill -CONT "$sleeper"; sleep 0.2
check_free "$sleeper" "S"

# A process that exits in the middle of sampling: a clear "gone", no hang.
sleep 0.3 & short=$!
status=0
"$JOBSENTRY" sample --count 100000 --pause-ms 0 "$short" >/dev/null 2>"$WORK/gone.err" || status=$?
[ "$status" -eq 1 ] || fail "sampling an exiting process ended with $status, expected 1"
grep -q "gone" "$WORK/gone.err" || fail "no 'gone' reported for an exited process: $(cat "$WORK/gone.err")"

kill "$sleeper"; kill "$mpirun_pid" 2>/dev/null || true; wait 2>/dev/null || true
pass "no target left stopped or traced"
