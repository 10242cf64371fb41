#!/usr/bin/env bash
# watch --attach: a job started apart from the supervisor (as under Slurm).
# SIGTERM to the supervisor leaves the job running; a hang found by a second
# supervisor ends the attached mpirun and its ranks (exit 3); pid 1 refused.
. "$(dirname "$0")/lib.sh"
NP=2
"$JOBSENTRY" watch --attach 1 2>"$WORK/init.err" && fail "--attach 1 was accepted"
grep -q "init or an ancestor" "$WORK/init.err" || fail "--attach 1: $(cat "$WORK/init.err")"

mpirun --oversubscribe -np "$NP" "$HANGPROG" --seconds 100 --hang sleep --hang-after 7 >/dev/null 2>&1 &
job=$!
"$JOBSENTRY" watch --report "$WORK/first.json" --attach "$job" 2>"$WORK/first.err" &
first=$!
sleep 3
kill -TERM "$first"
status=0; wait "$first" || status=$?
[ "$status" -eq 0 ] || fail "the first supervisor exited $status after SIGTERM, expected 0"
kill -0 "$job" 2>/dev/null || fail "SIGTERM to the supervisor ended the attached job"

status=0
timeout 90 "$JOBSENTRY" watch --grace-ms 2000 --report "$WORK/report.json" --attach "$job" 2>"$WORK/watch.err" ||
  status=$?
[ "$status" -eq 3 ] || fail "watch --attach exited $status on a hang, expected 3"
expect_json '.suspect_ranks | join(",")' "$((NP - 1))"
for _ in $(seq 50); do kill -0 "$job" 2>/dev/null || break; sleep 0.1; done
wait "$job" 2>/dev/null || true
expect_no_leftovers
pass "attached job left running on SIGTERM, ended on a hang"
