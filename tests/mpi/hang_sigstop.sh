#!/usr/bin/env bash
# One rank is stopped with SIGSTOP from outside: detected, that rank named,
# and killing the job leaves no stopped process behind.
. "$(dirname "$0")/lib.sh"
RANK=1
mkdir -p "$WORK/pids"
(
  sleep 15
  for _ in $(seq 100); do [ -s "$WORK/pids/rank.$RANK" ] && break; sleep 0.1; done
  kill -STOP "$(cat "$WORK/pids/rank.$RANK")"
) &
stopper=$!
run_watch 3 -- --seconds 120 --pid-dir "$WORK/pids"
wait "$stopper"
expect_json .verdict hang
expect_json '.suspect_ranks | join(",")' "$RANK"
expect_json ".ranks[] | select(.rank == $RANK) | .state" T
expect_no_leftovers
pass "SIGSTOPped rank $RANK detected and named"
