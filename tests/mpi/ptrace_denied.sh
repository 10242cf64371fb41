#!/usr/bin/env bash
# ptrace not permitted: a clear message naming what is missing, and the
# command keeps running unmonitored to its normal end (exit status its own).
# The ranks make themselves non-dumpable, so a tracer of the same user needs
# CAP_SYS_PTRACE: as root, jobsentry runs without that capability (or, where
# the bounding set cannot be changed, as the unprivileged user nobody).
# 7 s: the refusal is said about 2.6 s after the start (ranks found, the first
# PTRACE_SEIZE refused); the rest of the run shows the command going on unmonitored.
. "$(dirname "$0")/lib.sh"
drop=()
if [ "$(id -u)" -eq 0 ]; then
  if setpriv --bounding-set=-sys_ptrace --inh-caps=-sys_ptrace true 2>/dev/null; then
    drop=(setpriv --bounding-set=-sys_ptrace --inh-caps=-sys_ptrace)
  else
    chmod 777 "$WORK"
    drop=(setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME="$WORK")
  fi
fi
status=0
"${drop[@]}" "$JOBSENTRY" watch --report "$WORK/report.json" -- \
  mpirun --oversubscribe -np "$NP" "$HANGPROG" --seconds 7 --undumpable \
  >"$WORK/watch.out" 2>"$WORK/watch.err" || status=$?
[ "$status" -eq 0 ] || fail "exit status $status, expected the command's 0"
grep -q "unmonitored" "$WORK/watch.err" || fail "no message that the command runs unmonitored"
grep -qi "ptrace" "$WORK/watch.err" || fail "the message does not name ptrace"
grep -q "CAP_SYS_PTRACE" "$WORK/watch.err" || fail "the message does not say what is missing"
expect_json .verdict no_hang
[ -n "$(json '.monitoring_problem // empty')" ] || fail "report lacks monitoring_problem"
pass "ptrace refused: reported, command ran to its end"
