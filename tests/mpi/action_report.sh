#!/usr/bin/env bash
# --action report: the report is written but the command keeps running; a
# SIGTERM sent to jobsentry is passed on to the command, which then ends;
# jobsentry exits 3 because a hang was found. The stack tree is drawn beside
# the report as report.dot and report.svg.
. "$(dirname "$0")/lib.sh"
"$JOBSENTRY" watch --action report --report "$WORK/report.json" -- \
  mpirun --oversubscribe -np "$NP" "$HANGPROG" --seconds 300 --hang sleep --hang-rank 0 --hang-after 10 \
  >"$WORK/watch.out" 2>"$WORK/watch.err" &
watch=$!
for _ in $(seq 600); do
  [ -f "$WORK/report.json" ] && [ "$(json .verdict)" = hang ] && break
  sleep 0.2
done
expect_json .verdict hang
expect_json '.suspect_ranks | join(",")' 0
# The stack tree drawn beside the report (Graphviz comes with install-deps.sh).
[ -f "$WORK/report.dot" ] || fail "no report.dot beside the report"
[ -f "$WORK/report.svg" ] || fail "no report.svg beside the report: $(json .stack_tree_graph_note)"
expect_json .stack_tree_svg "$WORK/report.svg"
grep -q '<svg' "$WORK/report.svg" || fail "report.svg is not an SVG"
grep -q sleep_forever "$WORK/report.svg" || fail "report.svg lacks the suspect's frame sleep_forever"
sleep 2
[ "$(tagged_pids | wc -l)" -eq "$NP" ] || fail "the command did not keep running after the report"
kill -TERM "$watch"
status=0
wait "$watch" || status=$?
[ "$status" -eq 3 ] || fail "jobsentry exited $status after SIGTERM, expected 3"
expect_no_leftovers
pass "action report kept the job running; SIGTERM ended it"
