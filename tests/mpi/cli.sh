#!/usr/bin/env bash
# Bad input: exit 2 naming the option and the accepted values; a command that
# does not exist: exit 127 with a clear error.
. "$(dirname "$0")/lib.sh"
expect_error() {  # expect_error STATUS PATTERN ARGS...
  local want=$1 pattern=$2; shift 2
  local status=0
  "$JOBSENTRY" "$@" >"$WORK/out" 2>"$WORK/err" || status=$?
  [ "$status" -eq "$want" ] || fail "jobsentry $* exited $status, expected $want"
  grep -q -- "$pattern" "$WORK/err" || { cat "$WORK/err" >&2; fail "jobsentry $*: message lacks '$pattern'"; }
}
expect_error 2 "alpha" watch --alpha 7 -- true
expect_error 2 "0 < alpha < 0.5" watch --alpha 7 -- true
expect_error 2 "kill, report" watch --action explode -- true
expect_error 2 "frobnicate" watch --frobnicate -- true
expect_error 2 "interval-ms" watch --interval-ms fast -- true
expect_error 2 "COMMAND" watch
expect_error 2 "unknown command" explode
expect_error 127 "cannot run 'no-such-command-xyz'" watch -- no-such-command-xyz
status=0; "$JOBSENTRY" watch --report "$WORK/r.json" -- sh -c 'exit 7' 2>/dev/null || status=$?
[ "$status" -eq 7 ] || fail "the command's own status 7 was not returned (got $status)"
"$JOBSENTRY" watch --help | contains -- "--interval-ms" || fail "--help lacks options"
pass "bad input gets clear errors"
