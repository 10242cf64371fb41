#!/usr/bin/env bash
# slow_action=drain (issue 29), a real fault on a real job: ranks of a
# halo-exchange job (the stripped polling program halo_waitall) are stopped
# STOP_MS of every 100 ms from outside (SIGSTOP/SIGCONT, as a throttled or
# failing CPU would hold them) once the job's slow baseline is complete. The
# supervisor must name them slow in its log and the AdminComment, set their
# node DRAIN with a reason naming the job, claim no hang, and leave the job
# running. The node is resumed at the end, whatever happened.
#   slow_drain.sh one [STOP_MS]     4 ranks on the one node, rank 2 slowed
#   slow_drain.sh multi [STOP_MS]   6 ranks on n1..n3 (docs/multi-node.md), node n2's ranks 2 and 3 slowed
. "$(dirname "$0")/lib.sh"
SHAPE=${1:-one}
STOP_MS=${2:-60}
LIMIT=120   # seconds from the fault to the drained node
install -o "$TEST_USER" -m 0755 "$INSTALL/halo_waitall" "$WORK/halo_waitall"
as_user mkdir "$WORK/pids"
use_plugin slow_action=drain
# A baseline of 64 rounds (the default is 300): the job's first ~30 s.
case $SHAPE in
  one)
    job_script job.sh "mpirun -np 4 ./halo_waitall --seconds 400 --pid-dir $WORK/pids"
    id=$(submit --hang-detect=slow_baseline_rounds=64 -n 4 job.sh)
    ranks=(2) unit="rank 2 \\(node [^)]*\\)" ;;
  multi)
    multi_job_script job.sh "srun --mpi=pmix ./halo_waitall --seconds 400 --pid-dir $WORK/pids"
    id=$(submit --hang-detect=slow_baseline_rounds=64 "${MULTI_NODE[@]}" job.sh)
    ranks=(2 3)
    # The first verdict may name one of n2's ranks before both (decision-rule.md §5): either names n2.
    unit="(node n2 \\(ranks 2-3\\)|rank [23] \\(node n2\\))" ;;
  *) fail "usage: slow_drain.sh one|multi [STOP_MS] (not '$SHAPE')" ;;
esac
node="" throttler=""
finish() {
  [ -z "$throttler" ] || kill "$throttler" 2>/dev/null || true
  [ -z "$node" ] || scontrol update NodeName="$node" State=RESUME 2>/dev/null || true
  cleanup
}
trap finish EXIT
wait_state "$id" 60 RUNNING
wait_log "$id" 120 "slow verdict: baseline of .* complete"
pids=()
for r in "${ranks[@]}"; do
  for _ in $(seq 50); do [ -s "$WORK/pids/rank.$r" ] && break; sleep 0.2; done
  pids+=("$(cat "$WORK/pids/rank.$r")")
done
if [ "$SHAPE" = one ]; then node=$(squeue -h -j "$id" -o %N)
else node=n2; grep -q slurm_n2 "/proc/${pids[0]}/cgroup" || fail "rank ${ranks[0]} does not run on n2"; fi
faulted=$(date +%s)
( stop_s=$(awk -v m="$STOP_MS" 'BEGIN { print m / 1000 }') run_s=$(awk -v m="$STOP_MS" 'BEGIN { print (100 - m) / 1000 }')
  trap 'kill -CONT "${pids[@]}" 2>/dev/null; exit 0' TERM
  while kill -STOP "${pids[@]}" 2>/dev/null; do sleep "$stop_s"; kill -CONT "${pids[@]}" 2>/dev/null || break; sleep "$run_s"; done ) &
throttler=$!
wait_log "$id" "$LIMIT" "node $node set DRAIN: "
drained=$(date +%s)
kill "$throttler" 2>/dev/null || true
wait "$throttler" 2>/dev/null || true
throttler=""
show=$(scontrol show node "$node")
state=$(sed -n 's/.*State=\([A-Z_+]*\).*/\1/p' <<<"$show" | head -1)
reason=$(sed -n 's/.*Reason=\(.*\)/\1/p' <<<"$show" | head -1)
[[ "$state" == *DRAIN* ]] || fail "node $node is $state after the supervisor said it drained it"
[[ "$reason" =~ ^"jobsentry job $id: slow: "$unit ]] || fail "the drain reason of $node does not name job $id and $unit: '$reason'"
[ "$(state "$id")" = RUNNING ] || fail "job $id is $(state "$id") after the slow verdict: it must run on"
supervisor_log "$id" | contains "HANG detected" && fail "a hang was claimed for a rank that was only slowed"
# The live job record now (accounting gets it when the job ends), sacct after the end.
live=$(scontrol show job "$id" | sed -n 's/^ *AdminComment=//p')
[[ "$live" =~ "jobsentry slow: "$unit ]] || fail "the AdminComment of running job $id does not name $unit slow: '$live'"
scancel "$id"
wait_state "$id" 60 CANCELLED COMPLETED
comment=$(sacct_field "$id" AdminComment)
[[ "$comment" =~ "jobsentry slow: "$unit ]] || fail "sacct's AdminComment of job $id does not name $unit slow: '$comment'"
pass "job $id ($SHAPE): rank(s) ${ranks[*]} stopped $STOP_MS ms of every 100 ms; node $node DRAINED $((drained - faulted)) s after the fault began, reason '$reason'; AdminComment '$comment'; the job ran on"
