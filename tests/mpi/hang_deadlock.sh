#!/usr/bin/env bash
# Every rank waits in a receive nobody sends: a communication deadlock.
. "$(dirname "$0")/lib.sh"
run_watch 3 -- --seconds 120 --hang deadlock --hang-after 9
expect_json .verdict hang
expect_json '.suspect_ranks | length' "$NP"
expect_json '[.ranks[] | [.frames[].function] | any(test("^P?MPI_Recv$"))] | all' true  # MPICH names it MPI_Recv or PMPI_Recv
grep -q "communication deadlock" "$WORK/report.txt" || fail "text report does not call it a deadlock"
expect_replay_agrees hang
expect_no_leftovers
pass "deadlock of all $NP ranks detected"
