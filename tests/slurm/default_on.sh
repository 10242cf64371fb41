#!/usr/bin/env bash
# Site-wide enablement: with default=on in plugstack.conf a job submitted
# without the option is watched (its hang is cancelled and annotated), and
# --hang-detect=off opts a job out (no supervisor, no annotation).
. "$(dirname "$0")/lib.sh"
use_plugin default=on
install -o "$TEST_USER" -m 0755 "$INSTALL/hangprog" "$WORK/hangprog"
as_user mkdir "$WORK/pids"
job_script hang.sh "mpirun -np 4 ./hangprog --seconds 600 --hang sleep --hang-rank 1 --hang-after $HANG_AFTER"
job_script fine.sh "mpirun -np 4 ./hangprog --seconds 20"
watched=$(submit -n 4 hang.sh)
optout=$(submit -n 4 --hang-detect=off fine.sh)
expect_hang_handled "$watched" 1 CANCELLED
wait_state "$optout" 120 COMPLETED
comment=$(sacct -j "$optout" -X -n -P -o AdminComment)
[ -z "$comment" ] || fail "opted-out job $optout was annotated: '$comment'"
[ -e "$SUPERVISOR_LOGS/job_$optout.log" ] && fail "opted-out job $optout got a supervisor"
pass "default=on watched job $watched; --hang-detect=off left job $optout alone"
