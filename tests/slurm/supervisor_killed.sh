#!/usr/bin/env bash
# A failure of monitoring never fails the job: the supervisor killed with
# SIGKILL mid-job (as a crash would) leaves the job running to COMPLETED with
# exit code 0, and the job's next step starts a new supervisor (the pid file
# names a dead process), so monitoring resumes.
. "$(dirname "$0")/lib.sh"
install -o "$TEST_USER" -m 0755 "$INSTALL/hangprog" "$WORK/hangprog"
job_script job.sh "mpirun -np 4 ./hangprog --seconds 20" "srun --mpi=pmix -n 2 ./hangprog --seconds 5"
id=$(submit --hang-detect -n 4 job.sh)
wait_state "$id" 60 RUNNING
pid=""
for _ in $(seq 200); do
  pid=$(pgrep -f "jobsentry supervise --job-id $id " | head -1) && break
  sleep 0.1
done
[ -n "$pid" ] || fail "no supervisor for job $id"
sleep 5
kill -KILL "$pid"
wait_state "$id" 120 COMPLETED
[ "$(sacct_field "$id" ExitCode)" = 0:0 ] || fail "job $id exit code $(sacct_field "$id" ExitCode) after its supervisor died"
starts=$(supervisor_log "$id" | grep -c "watching job of $TEST_USER")
[ "$starts" -eq 2 ] || fail "job $id: $starts supervisor starts logged, expected 2 (one per step after the kill)"
expect_supervisor_gone "$id"
pass "supervisor of job $id killed mid-job; the next step restarted it; the job completed with exit code 0"
