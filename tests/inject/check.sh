#!/usr/bin/env bash
# libjobsentry-inject.so on an unmodified, stripped MPI program (halo_waitall):
# for each KIND, a hang on rank 1 after 3 s must write the mark line and leave
# that rank's main thread in the expected state (sleep/read: S and no CPU over
# 1 s; spin: R and CPU; stop: T), while the other ranks still run; killing the
# job leaves nothing behind. A malformed JOBSENTRY_INJECT prints one clear line
# and the program runs normally. KIND slow (a rank's own code slowed, never
# stopped) must mark and let the job complete.
set -euo pipefail

INJECT=${INJECT:?set by CTest}
PROG=${PROG:?set by CTest}
NP=4
RANK=1
NAME=$(basename "$PROG")
WORK=$(mktemp -d /tmp/jobsentry-inject.XXXXXX)
# Every process this test starts carries this tag in its environment (as in
# tests/mpi/lib.sh): cleanup and the leftover check see only ours.
export JOBSENTRY_TEST_TAG=$WORK
tagged_pids() {
  local pid
  for pid in $(pgrep -x "$1"); do
    grep -qz "^JOBSENTRY_TEST_TAG=$WORK\$" "/proc/$pid/environ" 2>/dev/null && echo "$pid"
  done
  return 0
}
kill_tagged() {
  local name
  for name in mpirun "$NAME"; do
    tagged_pids "$name" | xargs -r kill -KILL 2>/dev/null || true
  done
}
cleanup() {
  local bg
  bg=$(jobs -p)
  [ -n "$bg" ] && kill $bg 2>/dev/null || true
  kill_tagged
  rm -rf "$WORK"
}
trap cleanup EXIT

if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1

fail() { echo "FAIL: $*" >&2; for f in "$WORK"/err.*; do [ -f "$f" ] && { echo "--- $f" >&2; tail -20 "$f" >&2; }; done; exit 1; }
pass() { echo "PASS: $*"; }

# "STATE CPU_TICKS" of a process's main thread.
main_thread() {
  local s
  s=$(cat "/proc/$1/task/$1/stat" 2>/dev/null) || return 1
  s=${s##*) }
  # shellcheck disable=SC2086
  set -- $s
  echo "$1 $((${12} + ${13}))"
}

check_kind() {
  local kind=$1 mark=$WORK/mark.$1 pids=$WORK/pids.$1
  mkdir -p "$pids"
  local t0
  t0=$(date +%s.%N)
  timeout --kill-after=5 60 env LD_PRELOAD="$INJECT" JOBSENTRY_INJECT="$kind:$RANK:3" JOBSENTRY_INJECT_MARK="$mark" \
    mpirun --oversubscribe -np "$NP" "$PROG" --seconds 50 --pid-dir "$pids" >"$WORK/out.$kind" 2>"$WORK/err.$kind" &
  local job=$! status=0
  for _ in $(seq 300); do
    [ -s "$mark" ] && break
    if ! kill -0 "$job" 2>/dev/null; then
      wait "$job" || status=$?
      fail "$kind: the job ended (status $status) before the hang"
    fi
    sleep 0.1
  done
  [ -s "$mark" ] || fail "$kind: no mark line after 30 s"
  local t r pid k extra
  read -r t r pid k extra <"$mark"
  [ "$(wc -l <"$mark")" -eq 1 ] || fail "$kind: $(wc -l <"$mark") mark lines, expected 1"
  [[ $t =~ ^[0-9]+\.[0-9]{6}$ ]] || fail "$kind: mark time '$t' is not <seconds>.<microseconds>"
  [ "$r" = "$RANK" ] && [ "$k" = "$kind" ] && [ -z "$extra" ] || fail "$kind: mark line '$(cat "$mark")'"
  [ "$pid" = "$(cat "$pids/rank.$RANK")" ] || fail "$kind: mark pid $pid is not rank $RANK's $(cat "$pids/rank.$RANK")"
  local delay
  delay=$(echo "$t - $t0" | bc)
  (($(echo "$delay >= 3 && $delay < 20" | bc))) || fail "$kind: hang began $delay s after the start"
  grep -q "^HANG-INJECTED [0-9.]* $kind rank $RANK" "$WORK/err.$kind" || fail "$kind: no HANG-INJECTED line"

  sleep 0.5
  local before after
  before=$(main_thread "$pid") || fail "$kind: rank $RANK (pid $pid) is gone"
  sleep 1
  after=$(main_thread "$pid") || fail "$kind: rank $RANK (pid $pid) is gone"
  local s1=${before% *} c1=${before#* } s2=${after% *} c2=${after#* }
  case $kind in
  sleep | read)
    [ "$s1" = S ] && [ "$s2" = S ] || fail "$kind: state $s1 then $s2, expected S"
    [ "$c2" -eq "$c1" ] || fail "$kind: CPU grew from $c1 to $c2 ticks in 1 s"
    # The blocking system call: read (0), or nanosleep (35) / clock_nanosleep (230).
    local nr
    nr=$(cut -d' ' -f1 "/proc/$pid/syscall")
    if [ "$kind" = read ]; then [ "$nr" = 0 ] || fail "read: in system call $nr, not read"
    else [ "$nr" = 35 ] || [ "$nr" = 230 ] || fail "sleep: in system call $nr, not nanosleep"; fi ;;
  spin)
    [ "$s1" = R ] && [ "$s2" = R ] || fail "spin: state $s1 then $s2, expected R"
    [ "$c2" -gt "$c1" ] || fail "spin: no CPU growth ($c1 then $c2 ticks)" ;;
  stop)
    [ "$s1" = T ] && [ "$s2" = T ] || fail "stop: state $s1 then $s2, expected T" ;;
  esac
  # The other ranks are still there (waiting for rank 1), and so is the job.
  kill -0 "$job" 2>/dev/null || fail "$kind: the job ended"
  [ "$(tagged_pids "$NAME" | wc -l)" -eq "$NP" ] || fail "$kind: not all $NP ranks are alive"

  # Kill the job as a user would (SIGTERM to mpirun), then make sure.
  kill -TERM "$(tagged_pids mpirun)" 2>/dev/null || true
  for _ in $(seq 100); do
    kill -0 "$job" 2>/dev/null || break
    sleep 0.1
  done
  local how="mpirun ended the job on SIGTERM"
  if kill -0 "$job" 2>/dev/null || [ -n "$(tagged_pids "$NAME")" ]; then
    how="SIGKILL needed after 10 s"
    kill_tagged
  fi
  wait "$job" 2>/dev/null || true
  sleep 0.5
  local left
  left=$(tagged_pids "$NAME"; tagged_pids mpirun)
  [ -z "$left" ] || fail "$kind: processes left behind: $left"
  pass "$kind: rank $RANK hung ${delay} s after the start (state ${s2}, CPU ${c1}->${c2} ticks); $how"
}

for kind in sleep spin read stop; do
  check_kind "$kind"
done

# slow is not a hang: rank 1's own code runs 4x slower from 1 s on, the mark
# line is written, the rank is never stopped, and the job completes normally.
check_slow() {
  local mark=$WORK/mark.slow status=0 state="" t
  timeout --kill-after=5 60 env LD_PRELOAD="$INJECT" JOBSENTRY_INJECT="slow:$RANK:1" JOBSENTRY_INJECT_SLOWDOWN=4 \
    JOBSENTRY_INJECT_MARK="$mark" mpirun --oversubscribe -np "$NP" "$PROG" --seconds 6 --pid-dir "$WORK/pids.slow" \
    >"$WORK/out.slow" 2>"$WORK/err.slow" &
  local job=$!
  for t in $(seq 50); do
    [ -s "$mark" ] && [ -s "$WORK/pids.slow/rank.$RANK" ] && break
    sleep 0.1
  done
  [ -s "$mark" ] || fail "slow: no mark line after 5 s"
  for t in $(seq 20); do  # 2 s of looking: never stopped
    state=$(main_thread "$(cat "$WORK/pids.slow/rank.$RANK")") || break
    [ "${state% *}" != T ] || fail "slow: rank $RANK found stopped"
    sleep 0.1
  done
  wait "$job" || status=$?
  [ "$status" -eq 0 ] || fail "slow: the job exited $status"
  grep -q '^OK ' "$WORK/out.slow" || fail "slow: no OK line"
  grep -q " $RANK [0-9]* slow\$" "$mark" || fail "slow: mark line '$(cat "$mark")'"
  grep -q "^SLOW-INJECTED [0-9.]* slow rank $RANK" "$WORK/err.slow" || fail "slow: no SLOW-INJECTED line"
  grep -q "HANG-INJECTED" "$WORK/err.slow" && fail "slow: a slowdown announced as a hang"
  pass "slow: rank $RANK slowed from 1 s on, never stopped, the job completed"
}
mkdir -p "$WORK/pids.slow"
check_slow

# Malformed values: one clear line (from rank 0 only), nothing injected, the
# program completes normally.
malformed() {  # malformed VALUE EXPECTED_REASON NP SECONDS
  local out=$WORK/out.bad err=$WORK/err.bad status=0
  timeout --kill-after=5 60 env LD_PRELOAD="$INJECT" JOBSENTRY_INJECT="$1" JOBSENTRY_INJECT_MARK="$WORK/mark.bad" \
    mpirun --oversubscribe -np "$3" "$PROG" --seconds "$4" >"$out" 2>"$err" || status=$?
  [ "$status" -eq 0 ] || fail "JOBSENTRY_INJECT='$1': the program exited $status"
  grep -q '^OK ' "$out" || fail "JOBSENTRY_INJECT='$1': no OK line"
  local lines
  lines=$(grep -c '^jobsentry-inject:' "$err" || true)
  [ "$lines" -eq 1 ] || fail "JOBSENTRY_INJECT='$1': $lines error lines, expected 1"
  grep -qF "jobsentry-inject: JOBSENTRY_INJECT='$1': $2" "$err" ||
    fail "JOBSENTRY_INJECT='$1': the error does not say '$2': $(cat "$err")"
  grep -q 'expected KIND:RANK:SECONDS with KIND one of sleep, spin, read, stop, slow' "$err" ||
    fail "JOBSENTRY_INJECT='$1': the error does not say what is accepted"
  ! grep -q HANG-INJECTED "$err" && [ ! -e "$WORK/mark.bad" ] || fail "JOBSENTRY_INJECT='$1': something was injected"
  pass "malformed '$1': $(grep '^jobsentry-inject:' "$err")"
}
malformed "nap:1:3" "unknown KIND 'nap'" "$NP" 5
malformed "sleep:one:3" "RANK 'one' is not a rank number" 1 0.5
malformed "spin:1:-2" "SECONDS '-2' is not a number of seconds" 1 0.5
malformed "stop:1" "it does not have the form KIND:RANK:SECONDS" 1 0.5
