#!/usr/bin/env bash
# jobsentry_ckpt.h from Fortran (bind(C)): the collective decision reaches
# every rank alike, and the fallback period (50 ms over 40 iterations of
# ~10 ms, no JOBSENTRY_MTBF) asks for a checkpoint several times.
export HANGPROG=${CKPT_FORTRAN:?set by CTest}
. "$(dirname "$0")/lib.sh"
run() {  # run ENV...: prints "mode lo hi"
  env -u JOBSENTRY_MTBF -u JOBSENTRY_CKPT_PERIOD "$@" mpirun --oversubscribe -np "$NP" "$CKPT_FORTRAN" \
    >"$WORK/out" 2>"$WORK/err" || fail "ckpt_fortran $* failed: $(tail -5 "$WORK/err")"
  local mode lo hi
  read -r _ _ mode _ lo hi < "$WORK/out" || fail "no summary line: $(cat "$WORK/out")"
  [ "$lo" = "$hi" ] || fail "$*: ranks got different answers: $lo to $hi checkpoints"
  echo "$mode $lo"
}
# Each iteration is at least 10 ms of wall time, so 40 of them are at least
# 0.4 s of work: at least 7 periods of 50 ms, however loaded the machine.
read -r mode n <<<"$(run)"
[ "$mode" = 0 ] || fail "mode $mode: without JOBSENTRY_MTBF the fallback period should be in force"
[ "$n" -ge 7 ] && [ "$n" -le 40 ] || fail "$n checkpoints in >= 0.4 s of work with a 50 ms period"
read -r mode0 n0 <<<"$(run JOBSENTRY_CKPT_PERIOD=1h)"
[ "$n0" = 0 ] || fail "JOBSENTRY_CKPT_PERIOD=1h: $n0 checkpoints, expected none"
read -r mode1 n1 <<<"$(run JOBSENTRY_MTBF=24h)"
[ "$mode1" = 1 ] || fail "JOBSENTRY_MTBF=24h did not put the Young/Daly rule in force"
[ "$n1" = 0 ] || fail "JOBSENTRY_MTBF=24h (W_FO ~ 54 min with the 60 s guess): $n1 checkpoints, expected none"
pass "Fortran: $n checkpoints with a 50 ms period, the same on every rank; period and MTBF variables obeyed"
