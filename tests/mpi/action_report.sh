#!/usr/bin/env bash
# --action report: the report is written but the command keeps running; a
# SIGTERM sent to jobsentry is passed on to the command, which then ends;
# jobsentry exits 3 because a hang was found.
. "$(dirname "$0")/lib.sh"
"$JOBSENTRY" watch --action report --report "$WORK/report.json" -- \
  mpirun --oversubscribe -np "$NP" "$HANGPROG" --seconds 300 --hang sleep --hang-rank 0 --hang-after 20 \
  >"$WORK/watch.out" 2>"$WORK/watch.err" &
watch=$!
for _ in $(seq 120); do
  [ -f "$WORK/report.json" ] && [ "$(json .verdict)" = hang ] && break
  sleep 1
done
expect_json .verdict hang
expect_json '.suspect_ranks | join(",")' 0
sleep 2
[ "$(tagged_pids | wc -l)" -eq "$NP" ] || fail "the command did not keep running after the report"
kill -TERM "$watch"
status=0
wait "$watch" || status=$?
[ "$status" -eq 3 ] || fail "jobsentry exited $status after SIGTERM, expected 3"
expect_no_leftovers
pass "action report kept the job running; SIGTERM ended it"
