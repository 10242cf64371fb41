#!/usr/bin/env bash
# A whole job suspended and resumed (scontrol suspend/resume, as gang
# scheduling and preemption do) is a suspended job, never a hang: a polling
# job under --hang-detect, suspended for 15 s mid-run, completes with "no hang".
. "$(dirname "$0")/lib.sh"
install -o "$TEST_USER" -m 0755 "$INSTALL/random_access" "$WORK/random_access"
job_script job.sh "export OMPI_MCA_mpi_yield_when_idle=1" "mpirun -np 4 ./random_access --seconds 32"
id=$(submit --hang-detect -n 4 job.sh)
wait_state "$id" 60 RUNNING
sleep 8
scontrol suspend "$id" || fail "scontrol suspend $id refused"
wait_state "$id" 30 SUSPENDED
sleep 15
scontrol resume "$id" || fail "scontrol resume $id refused"
wait_state "$id" 180 COMPLETED
comment=$(sacct_field "$id" AdminComment)
echo "job $id: AdminComment: $comment"
[[ "$comment" =~ ^jobsentry:\ no\ hang\;\ ([0-9]+)\ samples(\;\ supervisor\ CPU\ [0-9.]+\ %\ of\ the\ job)?$ ]] || fail "AdminComment of job $id is '$comment'"
grep -q "HANG detected" <(supervisor_log "$id") && fail "the supervisor claimed a hang"
expect_supervisor_gone "$id"
pass "job $id suspended for 15 s and resumed: completed with '$comment'"
