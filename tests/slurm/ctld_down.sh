#!/usr/bin/env bash
# slurmctld away when a hang is found (a restart, a failover): the supervisor
# retries the annotation and the cancel with a growing pause, and once
# slurmctld is back the job is CANCELLED with its verdict in sacct; no
# supervisor is left behind. (bench/slurm_faults.sh: munged, slurmdbd, longer.)
. "$(dirname "$0")/lib.sh"
install -o "$TEST_USER" -m 0755 "$INSTALL/hangprog" "$WORK/hangprog"
job_script job.sh "mpirun -np 4 ./hangprog --seconds 600 --hang sleep --hang-rank 2 --hang-after $HANG_AFTER"
id=$(submit --hang-detect -n 4 job.sh)
wait_state "$id" 60 RUNNING
wait_log "$id" 60 "sample 5 "
ctld=$(cat /run/jobsentry-cluster/slurmctld.pid)
kill -TERM "$ctld"
for _ in $(seq 100); do kill -0 "$ctld" 2>/dev/null || break; sleep 0.1; done
kill -0 "$ctld" 2>/dev/null && fail "slurmctld (pid $ctld) did not stop"
# The hang is found while slurmctld is away: the first attempt fails.
for _ in $(seq 600); do supervisor_log "$id" | contains "attempt 1 failed; again in" && break; sleep 0.1; done
supervisor_log "$id" | contains "attempt 1 failed; again in" || { bash "$SRC/scripts/cluster.sh" up >/dev/null; fail "no failed first attempt within 60 s of stopping slurmctld"; }
bash "$SRC/scripts/cluster.sh" up >/dev/null
wait_state "$id" 90 CANCELLED
for _ in $(seq 300); do supervisor_log "$id" | contains "done at attempt" && break; sleep 0.1; done
supervisor_log "$id" | contains "done at attempt" || fail "the supervisor never said its attempt succeeded"
expect_hang_handled "$id" 2
for _ in $(seq 300); do pgrep -f "jobsentry supervise --job-id $id( |\$)" >/dev/null || break; sleep 0.1; done
pgrep -f "jobsentry supervise --job-id $id( |\$)" >/dev/null && fail "the supervisor of job $id is still there"
pass "job $id: hang found with slurmctld down, $(supervisor_log "$id" | grep -o 'done at attempt [0-9]*'), CANCELLED with its verdict"
