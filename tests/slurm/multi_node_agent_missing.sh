#!/usr/bin/env bash
# A node whose agent never starts (as if jobsentry.so had failed there) never
# makes a hang by itself: rank 5 on n3 sleeps outside MPI, so every rank the
# leader can see (0-3 on n1 and n2) waits in MPI and does not move, which
# looks like a deadlock. The leader must know n3 is unseen and clear every
# such alarm; the job is not cancelled, and its end annotation says
# that n3's agent never connected. (The test claims n3's agent pid file with a
# live placeholder before the job starts, so the plugin starts none there.)
. "$(dirname "$0")/lib.sh"
# The step is ended after 38 s by timeout (the batch script goes on and exits 0),
# so that the job ends by itself and gets its end annotation.
multi_job_script job.sh "timeout 38 srun --mpi=pmix $INSTALL/hangprog --seconds 300 --hang sleep --hang-rank 5 --hang-after $HANG_AFTER" "exit 0"
id=$(submit --hold --hang-detect "${MULTI_NODE[@]}" job.sh)
sleep 600 &
placeholder=$!
trap 'kill $placeholder 2>/dev/null || true; cleanup' EXIT
start=$(awk '{ print $22 }' "/proc/$placeholder/stat")
install -d -m 0700 /run/jobsentry-test
printf '%s %s\n' "$placeholder" "$start" >"/run/jobsentry-test/job_$id.node2.pid"   # node index 2: n3
scontrol release "$id"
wait_state "$id" 60 RUNNING
wait_log "$id" 60 "found 4 ranks .*2/n2:"
wait_log "$id" 120 "alarm cleared by verification: n3 cannot be seen \(node agent never connected on n3\)"
[ "$(state "$id")" = RUNNING ] || fail "job $id is $(state "$id") after the alarm was cleared"
grep -q "node agent on n2 connected" <(supervisor_log "$id") || fail "the agent of n2 never connected"
wait_state "$id" 120 COMPLETED
supervisor_log "$id" | contains "HANG detected" && fail "a hang was claimed while n3 could not be seen"
comment=$(sacct_field "$id" AdminComment)
[[ "$comment" == "jobsentry: no hang; "* ]] || fail "AdminComment of job $id is '$comment'"
[[ "$comment" == *"node agent never connected on n3"* ]] || fail "the missing agent of n3 is not in the AdminComment: '$comment'"
pass "job $id: n3 without an agent, alarm cleared ('n3 cannot be seen'), annotated: $comment"
