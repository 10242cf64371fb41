#!/usr/bin/env bash
# One rank is stopped with SIGSTOP from outside: detected, that rank named,
# and killing the job leaves no stopped process behind.
. "$(dirname "$0")/lib.sh"
RANK=1
mkdir -p "$WORK/pids"
# Stopped 9 s after the rank started, as the other hangs of this label (--hang-after 9): the model
# has learnt the healthy job by then. (It was 15 s after this script started, about 14 s of the job.)
(
  for _ in $(seq 300); do [ -s "$WORK/pids/rank.$RANK" ] && break; sleep 0.1; done
  sleep 9
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
