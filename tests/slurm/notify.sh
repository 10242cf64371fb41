#!/usr/bin/env bash
# action=notify: on a verified hang the batch shell gets SIGUSR1 (the usual
# checkpoint-and-exit hook) and the job is neither cancelled nor requeued: the
# script's own trap decides how it ends, here with exit status 3.
. "$(dirname "$0")/lib.sh"
install -o "$TEST_USER" -m 0755 "$INSTALL/hangprog" "$WORK/hangprog"
job_script job.sh \
  'trap "echo JOB-NOTIFIED >&2; kill \$app; exit 3" USR1' \
  "mpirun -np 4 ./hangprog --seconds 600 --hang sleep --hang-rank 1 --hang-after $HANG_AFTER &" \
  'app=$!' \
  'wait $app'
id=$(submit --hang-detect=action=notify -n 4 job.sh)
wait_state "$id" 60 RUNNING
expect_hang_handled "$id" 1 FAILED COMPLETED CANCELLED
grep -q JOB-NOTIFIED "$WORK/out.$id" || fail "the batch shell of job $id never got SIGUSR1"
[ "$(sacct_field "$id" State)" = FAILED ] || fail "job $id ended $(sacct_field "$id" State), expected FAILED (exit 3 from its trap)"
[ "$(sacct_field "$id" ExitCode)" = 3:0 ] || fail "job $id exit code $(sacct_field "$id" ExitCode), expected 3:0"
comment=$(sacct_field "$id" AdminComment)
[[ "$comment" == *"action notify"* ]] || fail "AdminComment does not say action notify: '$comment'"
expect_supervisor_gone "$id"
pass "job $id notified (SIGUSR1 to the batch shell), ended by its own trap"
