#!/usr/bin/env bash
# A hang-free job under --hang-detect (plain iterations, then long single-rank
# phases) completes: no alarm, the no-hang annotation, no report, and the
# supervisor ends with the job.
. "$(dirname "$0")/lib.sh"
install -o "$TEST_USER" -m 0755 "$INSTALL/hangprog" "$WORK/hangprog"
job_script job.sh "mpirun -np 4 ./hangprog --seconds 10" "srun --mpi=pmix -n 4 ./hangprog --seconds 16 --long-phases"
id=$(submit --hang-detect -n 4 job.sh)
wait_state "$id" 150 COMPLETED
comment=$(sacct_field "$id" AdminComment)
echo "job $id: AdminComment: $comment"
[[ "$comment" =~ ^jobsentry:\ no\ hang\;\ ([0-9]+)\ samples(\;\ supervisor\ CPU\ [0-9.]+\ %\ of\ the\ job)?$ ]] || fail "AdminComment of job $id is '$comment'"
[ "${BASH_REMATCH[1]}" -gt 20 ] || fail "only ${BASH_REMATCH[1]} samples in 26 s"
[ ! -e "$WORK/jobsentry-$id.json" ] || fail "a report was written for a hang-free job"
grep -q "HANG detected" <(supervisor_log "$id") && fail "the supervisor claimed a hang"
expect_supervisor_gone "$id"
pass "hang-free job $id completed with '$comment'"
