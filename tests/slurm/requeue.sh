#!/usr/bin/env bash
# action=requeue: a hung batch job is put back in the queue (annotated, with
# its report), not cancelled.
. "$(dirname "$0")/lib.sh"
install -o "$TEST_USER" -m 0755 "$INSTALL/hangprog" "$WORK/hangprog"
job_script job.sh "mpirun -np 4 ./hangprog --seconds 600 --hang sleep --hang-rank 3 --hang-after $HANG_AFTER"
id=$(submit --hang-detect=action=requeue --requeue -n 4 job.sh)
wait_state "$id" 60 RUNNING
restarts() { scontrol show job "$id" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p'; }
for _ in $(seq 450); do [ "$(restarts)" -ge 1 ] && break; sleep 0.2; done
restarts=$(restarts)
[ "$restarts" -ge 1 ] || fail "job $id has Restarts=$restarts 90 s after start"
expect_hang_handled "$id" 3
sacct -j "$id" -D -X -n -P -o State | contains REQUEUED || fail "sacct does not show the REQUEUED run"
scancel "$id"
pass "job $id requeued (Restarts=$restarts)"
