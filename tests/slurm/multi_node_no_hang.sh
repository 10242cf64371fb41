#!/usr/bin/env bash
# A hang-free 3-node job with long single-rank phases runs to its end: the
# leader samples ranks on all three nodes and claims nothing; every agent ends
# with the job, saying goodbye (no "lost" agent); nothing is left running.
. "$(dirname "$0")/lib.sh"
multi_job_script job.sh "srun --mpi=pmix $INSTALL/hangprog --seconds 30 --long-phases"
id=$(submit --hang-detect "${MULTI_NODE[@]}" job.sh)
wait_state "$id" 60 RUNNING
wait_log "$id" 60 "found 6 ranks .*2/n2:.*4/n3:"
wait_state "$id" 150 COMPLETED
comment=$(sacct_field "$id" AdminComment)
[[ "$comment" == "jobsentry: no hang; "* ]] || fail "AdminComment of job $id is '$comment'"
[[ "$comment" != *"agent lost"* ]] || fail "an agent was reported lost at a normal end: '$comment'"
grep -qE 'sample [0-9]+ .*r2:.*r4:' <(supervisor_log "$id") || fail "ranks of n2 and n3 were never sampled"
expect_supervisor_gone "$id"
for n in 1 2; do
  for _ in $(seq 100); do pgrep -f "jobsentry agent --job-id $id " >/dev/null || break; sleep 0.1; done
  pgrep -f "jobsentry agent --job-id $id " >/dev/null && fail "a node agent of job $id outlived it"
  [ -e "/run/jobsentry-test/job_$id.node$n.pid" ] && fail "the pid file of node $n's agent is left behind"
done
pass "hang-free 3-node job $id completed: $comment"
