#!/usr/bin/env bash
# A 3-node job (2 ranks per node, Open MPI over TCP) with rank 3, on the second
# node n2, hung in sleep: the leader on n1 gets n2's samples from its node agent,
# cancels the job within 60 s of the injection and names rank 3 on n2; the
# report's stack tree spans the three nodes and is drawn as DOT and SVG.
# The agents form a tree of fan-in 1 (agent_fan_in=1, node_tree.h): n3's agent
# connects to n2's, which relays for it, so the evidence of n3 reaches the leader
# through a relay that also holds the hung rank.
. "$(dirname "$0")/lib.sh"
use_plugin agent_fan_in=1
multi_job_script job.sh "srun --mpi=pmix $INSTALL/hangprog --seconds 300 --hang sleep --hang-rank 3 --hang-after $HANG_AFTER"
id=$(submit --hang-detect "${MULTI_NODE[@]}" job.sh)
wait_state "$id" 60 RUNNING
wait_log "$id" 60 "found 6 ranks .*2/n2:.*3/n2:.*4/n3:"
expect_hang_handled "$id" 3 CANCELLED
expect_supervisor_gone "$id"
report=$(sacct_field "$id" AdminComment); report=${report##*; report }
[ "$(jq -r '.ranks[] | select(.rank == 3) | .node' "$report")" = n2 ] || fail "the report does not place rank 3 on n2"
[ "$(jq -r '.ranks[] | select(.rank == 4) | .node' "$report")" = n3 ] || fail "the report does not place rank 4 on n3"
# The remote rank's still run has its length (its samples are timed on arrival at the leader).
jq -e '[.evidence.rank_runs[] | select(.rank == 3 and .seconds > 0)] | length == 1' "$report" >/dev/null ||
  fail "the report's run of rank 3 on n2 has no length: $(jq -c .evidence.rank_runs "$report")"
# Every rank's stack: its own frames, or those of a rank of the same call chain (the leader fetches
# the frames of the suspects and of one rank per call chain after the verdict: report_stacks.h).
[ "$(jq -r '[.ranks[] | select(.rank == 3) | .frames | length > 0] | all' "$report")" = true ] ||
  fail "the report lacks the suspect's own frames"
[ "$(jq -r '[.ranks[] | .stack_like_rank as $t | select((.frames | length > 0) or ($t != null))] | length' "$report")" = 6 ] ||
  fail "the report lacks the stack of a rank: $(jq -c '[.ranks[] | {rank, n: (.frames | length), stack_like_rank}]' "$report")"
twins=$(jq -r '[.ranks[] | select(.stack_like_rank != null)] | length' "$report")
[ "$(jq -r '[.nodes[] | select(.agent == "connected")] | length' "$report")" = 2 ] || fail "the report's node agents: $(jq -c .nodes "$report")"
[ "$(jq -r '.nodes[] | select(.node == "n3") | .via' "$report")" = n2 ] || fail "n3 was not seen through n2: $(jq -c .nodes "$report")"
grep -q "connected to the leader through n2" "$SUPERVISOR_LOGS/job_$id.node2.log" || fail "n3's agent did not connect through n2"
grep -q "relaying for the 1 nodes below" "$SUPERVISOR_LOGS/job_$id.node1.log" || fail "n2's agent did not relay"
svg=$(jq -r .stack_tree_svg "$report")
[ -s "$svg" ] && grep -q sleep "$svg" || fail "no SVG of the merged stack tree naming the sleeping frame ($svg)"
for n in 1 2; do
  grep -q "connected to the leader" "$SUPERVISOR_LOGS/job_$id.node$n.log" || fail "the agent of node $n never reached the leader"
done
pass "3-node job $id: hang of rank 3 on n2 found through its node agent, job cancelled ($twins ranks shown by a twin)"
