#!/usr/bin/env bash
# Hang detection on codes that behave like real ones, unmodified: the
# project's polling programs (tests/programs, stripped) and real MPI
# applications from Debian's archive (tests/apps/launch.sh). A hang is put
# into one rank without recompiling, by the LD_PRELOAD injector
# (tests/inject: sleep, spin, read, stop in user code) or by SIGSTOP from
# outside; KIND none is a hang-free run that must raise no alarm.
#   real_code.sh TARGET KIND [RANK] [AT_SECONDS] [RUN_SECONDS]
#   TARGET: a program of tests/programs (hpl_like, random_access, ...) or app:NAME
#   KIND:   none | sleep | spin | read | stop | sigstop | suspend (every rank stopped for 8 s, then continued)
# PROGRAM_OPTS: more options of a tests/programs target; WATCH_OPTS: of jobsentry watch.
. "$(dirname "$0")/lib.sh"
TARGET=${1:?program name or app:NAME}
KIND=${2:?none, sleep, spin, read, stop or sigstop}
RANK=${3:-2}
AT=${4:-12}
RUN=${5:-40}
INJECT_LIB=${INJECT_LIB:?set by CTest}
APPS=$(cd "$(dirname "$0")/.." && pwd)/apps

mkdir -p "$WORK/run" "$WORK/pids"
if [ "$KIND" = none ] || [ "$KIND" = sigstop ]; then
  unset JOBSENTRY_INJECT
else
  export JOBSENTRY_INJECT="$KIND:$RANK:$AT"
fi
export JOBSENTRY_INJECT_MARK="$WORK/injected"
# The injector only where it injects: hang-free and SIGSTOP runs are unmodified.
preload=()
[ -n "${JOBSENTRY_INJECT:-}" ] && preload=(env "LD_PRELOAD=$INJECT_LIB")
case $TARGET in
  app:*) cmd=("${preload[@]}" bash "$APPS/launch.sh" "${TARGET#app:}" "$WORK/run" "$NP" "$RUN") ;;
  *) cmd=("${preload[@]}" "${MPIEXEC[@]}")
     if [ -n "${JOBSENTRY_INJECT:-}" ] && [ "${MPI_IMPL:-openmpi}" = openmpi ]; then
       cmd+=(-x LD_PRELOAD -x JOBSENTRY_INJECT -x JOBSENTRY_INJECT_MARK)
     fi  # Hydra passes the whole environment on
     cmd+=("$PROGRAMS/$TARGET$([ "${MPI_IMPL:-openmpi}" = openmpi ] || echo "_$MPI_IMPL")" --seconds "$RUN" --pid-dir "$WORK/pids")
     read -ra program_opts <<<"${PROGRAM_OPTS:-}"  # e.g. dgemm_phase's --phase-seconds
     cmd+=("${program_opts[@]}") ;;
esac

trap 'sweep; cleanup' EXIT

if [ "$KIND" = suspend ]; then
  # Every rank stopped together and continued 8 s later, as scontrol suspend
  # and gang scheduling do: a suspended job, never a hang.
  ( sleep "$AT"
    ranks=$(for p in /proc/[0-9]*; do
      grep -qz "^JOBSENTRY_TEST_TAG=$WORK\$" "$p/environ" 2>/dev/null || continue
      grep -qzE "^(OMPI_COMM_WORLD_RANK|PMIX_RANK|PMI_RANK)=" "$p/environ" 2>/dev/null && echo "${p#/proc/}"
    done)
    kill -STOP $ranks && echo "$(date +%s.%N) all $ranks suspend" >>"$JOBSENTRY_INJECT_MARK"
    sleep 8
    kill -CONT $ranks ) &
fi
if [ "$KIND" = sigstop ]; then
  ( sleep "$AT"
    for _ in $(seq 300); do
      for p in /proc/[0-9]*; do
        grep -qz "^JOBSENTRY_TEST_TAG=$WORK\$" "$p/environ" 2>/dev/null || continue
        grep -qzE "^(OMPI_COMM_WORLD_RANK|PMIX_RANK|PMI_RANK)=$RANK\$" "$p/environ" 2>/dev/null || continue
        kill -STOP "${p#/proc/}" && echo "$(date +%s.%N) $RANK ${p#/proc/} sigstop" >>"$JOBSENTRY_INJECT_MARK"
        exit 0
      done
      sleep 0.1
    done ) &
fi

expected=3
[ "$KIND" = none ] || [ "$KIND" = suspend ] && expected=0
# The run itself may be given far longer than RUN when it hangs: the
# detector, not this limit, must end it.
# The applications' rates are calibrated on one machine (tests/apps/launch.sh): on a PVM guest
# NWChem's 25 s of work took 130 s (2026-11-26) against a limit of 135, so theirs is twice as wide.
case $TARGET in app:*) WATCH_LIMIT=$((RUN * 6 + 60)) ;; *) WATCH_LIMIT=$((RUN * 3 + 60)) ;; esac
status=0
# WATCH_OPTS: extra options of jobsentry watch (e.g. --ranks 2: the hung rank may be a visitor).
read -ra watch_opts <<<"${WATCH_OPTS:-}"
timeout --kill-after=5 "$WATCH_LIMIT" "$JOBSENTRY" watch --verbose --report "$WORK/report.json" "${watch_opts[@]}" -- "${cmd[@]}" \
  >"$WORK/watch.out" 2>"$WORK/watch.err" || status=$?
wait
[ -z "${KEEP_WATCH_ERR:-}" ] || cp "$WORK/watch.err" "$KEEP_WATCH_ERR"  # for bench/model_replay
[ "$status" -ne 124 ] || fail "jobsentry watch still ran after $WATCH_LIMIT s"
# A job that ended before its injection: its own last words say why (an application that failed).
never_injected() { tail -20 "$WORK/watch.out" >&2; fail "the hang was never injected (jobsentry watch exited $status)"; }
case $KIND in none | suspend) ;; *) [ -s "$JOBSENTRY_INJECT_MARK" ] || never_injected ;; esac
[ "$status" -eq "$expected" ] || { tail -30 "$WORK/watch.out" >&2; fail "jobsentry watch exited $status, expected $expected"; }
samples=$(json .samples)
if [ "$KIND" = none ] || [ "$KIND" = suspend ]; then
  [ "$KIND" = none ] || [ -s "$JOBSENTRY_INJECT_MARK" ] || fail "the ranks were never suspended"
  expect_json .verdict no_hang
  expect_json .command_status 0
  pass "$TARGET: no alarm in a hang-free run$([ "$KIND" = suspend ] && echo ' suspended for 8 s') ($samples samples, $(json .evidence.verifications) verifications: $(json .evidence.last_verification))"
  exit 0
fi
[ -s "$JOBSENTRY_INJECT_MARK" ] || never_injected
expect_json .verdict hang
suspects=$(json '.suspect_ranks | join(",")')
json ".suspect_ranks | index($RANK)" | contains -v null || fail "rank $RANK not among the suspects ($suspects)"
injected=$(awk 'NR == 1 { print $1 }' "$JOBSENTRY_INJECT_MARK")
delay=$(awk -v a="$injected" -v b="$(json .detected_at)" 'BEGIN { printf "%.1f", b - a }')
# Generous: the figures belong to bench/real_detection.sh; this catches a miss.
awk -v d="$delay" 'BEGIN { exit !(d <= 45) }' || fail "detected only after $delay s"
# Every target is stripped: its own frames must be named by module and
# function start ("hpl_like+0x1a40", from the unwind tables), not left as "".
[ "$(json "[.ranks[] | select(.rank == $RANK) | .frames[].function] | length")" -gt 0 ] ||
  fail "no frames reported for rank $RANK"
stripped=$(json '[.ranks[].frames[].function | select(test("^[^ ]+\\+0x[0-9a-f]+$"))] | length')
[ "$stripped" -gt 0 ] || fail "no frame of stripped code is named module+0xSTART"
unnamed=$(json '[.ranks[].frames[] | select(.function == "")] | length')
pass "$TARGET: $KIND of rank $RANK detected after $delay s, suspects $suspects ($(json .reason)); $stripped frames named module+0xSTART, $unnamed unnamed"
