#!/usr/bin/env bash
# Killing one node's agent mid-job (SIGKILL, as the OOM killer or an admin would)
# neither cancels nor harms the job: the leader drops n2's ranks, tells the job's
# output, and the end annotation says that n2's agent was lost. The agents form a
# tree of fan-in 1 (node_tree.h): n2's agent relays for n3's, so its loss also
# makes n3 unseen, and the annotation says so.
. "$(dirname "$0")/lib.sh"
use_plugin agent_fan_in=1
multi_job_script job.sh "srun --mpi=pmix $INSTALL/hangprog --seconds 22"
id=$(submit --hang-detect "${MULTI_NODE[@]}" job.sh)
wait_state "$id" 60 RUNNING
wait_log "$id" 60 "found 6 ranks .*2/n2:"
wait_log "$id" 30 "sample 10 "
pidfile=/run/jobsentry-test/job_$id.node1.pid   # node index 1: n2
[ -s "$pidfile" ] || fail "no pid file of n2's agent"
agent=$(cut -d' ' -f1 "$pidfile")
tr '\0' ' ' <"/proc/$agent/cmdline" | contains "agent --job-id $id --node-index 1" || fail "pid $agent is not n2's agent"
kill -KILL "$agent"
wait_log "$id" 30 "node agent on n2 lost"
wait_state "$id" 150 COMPLETED
comment=$(sacct_field "$id" AdminComment)
[[ "$comment" == "jobsentry: no hang; "* ]] || fail "AdminComment of job $id is '$comment'"
[[ "$comment" == *"node agent lost on n2"* ]] || fail "the loss of n2's agent is not in the AdminComment: '$comment'"
[[ "$comment" == *"node agent on n3 unreachable: its relay on n2 lost"* ]] ||
  fail "n3, below the lost relay, is not named in the AdminComment: '$comment'"
grep -q "node agent on n2 lost" "$WORK/out.$id" || fail "the job's output does not tell of the lost agent"
[ "$(sacct_field "$id" ExitCode)" = "0:0" ] || fail "the job did not exit 0"
pass "agent of n2 killed mid-job $id: job completed, reported: $comment"
