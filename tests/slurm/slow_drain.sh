#!/usr/bin/env bash
# The slow verdict acted on by site policy (issue 29), a real fault on a real
# job: ranks of a halo-exchange job (the stripped polling program halo_waitall; under srun its
# rank 0 prints a progress line every 10 iterations, which the job's srun writes out: its written
# bytes are the job's output count, the slow verdict's measure of the job's pace)
# are stopped STOP_MS of every 100 ms from outside (SIGSTOP/SIGCONT, as a
# throttled or failing CPU would hold them) once the job's slow baseline is
# complete. The supervisor must name them slow in its log and the AdminComment,
# act as slow_action says, claim no hang, and leave the job running. A drained
# node is resumed at the end, whatever happened.
#   slow_drain.sh one [STOP_MS]     slow_action=drain; 4 ranks on the one node, rank 2 slowed
#   slow_drain.sh multi [STOP_MS]   slow_action=drain; 6 ranks on n1..n3 (docs/multi-node.md),
#                                   node n2's ranks 2 and 3 slowed: n2 drained
#   slow_drain.sh notify [STOP_MS]  slow_action=notify; as one: the batch shell gets SIGUSR1
#                                   once (its trap says so and the job goes on), no node drained
#   slow_drain.sh requeue [STOP_MS] slow_action=requeue_exclude; as multi, the job asking for it
#                                   (slow_requeue=yes, --requeue) and told to checkpoint (--checkpoint):
#                                   n2 drained, the job requeued and running again without n2
#   slow_drain.sh link [RATE]       slow_action=drain; as multi, but no rank is held: node n2's link
#                                   is rate-limited (default 2mbit, limit_link in lib.sh) once the
#                                   baseline of 128 rounds (32 link readings) is complete: n2 drained
#                                   as a slow network
. "$(dirname "$0")/lib.sh"
SHAPE=${1:-one}
STOP_MS=${2:-60}
LIMIT=120   # seconds from the fault to the action
BASELINE_WAIT=120
install -o "$TEST_USER" -m 0755 "$INSTALL/halo_waitall" "$WORK/halo_waitall"
as_user mkdir "$WORK/pids"
run="mpirun -np 4 ./halo_waitall --seconds 400 --pid-dir $WORK/pids"
# A baseline of 64 rounds (the default is 300): the job's first ~30 s.
case $SHAPE in
  one | notify)
    if [ "$SHAPE" = one ]; then use_plugin slow_action=drain; job_script job.sh "$run"
    else
      use_plugin slow_action=notify
      # The trap runs when the shell is back from a wait: the app runs in the background.
      job_script job.sh 'trap "echo JOB-NOTIFIED-SLOW >&2" USR1' "$run &" 'app=$!' \
        'while kill -0 $app 2>/dev/null; do wait $app; done'
    fi
    id=$(submit --hang-detect=slow_baseline_rounds=64 -n 4 job.sh)
    ranks=(2) unit="rank 2 \\(node [^)]*\\)" ;;
  multi)
    use_plugin slow_action=drain
    multi_job_script job.sh "srun --mpi=pmix ./halo_waitall --seconds 400 --progress 10 --pid-dir $WORK/pids"
    id=$(submit --hang-detect=slow_baseline_rounds=64 "${MULTI_NODE[@]}" job.sh)
    ranks=(2 3)
    # The first verdict may name one of n2's ranks before both (decision-rule.md §5): either names n2,
    # by either evidence (a rank continued after its stop waits on the run queue too: "starved of CPU").
    unit="(node n2 \\(ranks 2-3[^)]*\\)|rank [23] \\(node n2[^)]*\\))" ;;
  requeue)
    # Checkpoint signals (USR2) every ~2.3 s (3 nodes, MTBF 20 s each, C 400 ms), trapped.
    use_plugin slow_action=requeue_exclude mtbf=20s
    multi_job_script job.sh 'echo "RUN restart=${SLURM_RESTART_COUNT:-0} nodes=$SLURM_JOB_NODELIST" >&2' \
      "trap 'echo CHECKPOINT-SIGNAL >&2' USR2" \
      "srun --mpi=pmix ./halo_waitall --seconds 400 --progress 10 --pid-dir $WORK/pids &" 'app=$!' \
      'while kill -0 $app 2>/dev/null; do wait $app; done'
    id=$(submit --requeue --open-mode=append --checkpoint=signal:USR2,cost=400ms \
      --hang-detect=slow_baseline_rounds=64,slow_requeue=yes "${MULTI_NODE[@]}" job.sh)
    ranks=(2 3)
    # The first verdict may name one of n2's ranks before both (decision-rule.md §5): either names n2,
    # by either evidence (a rank continued after its stop waits on the run queue too: "starved of CPU").
    unit="(node n2 \\(ranks 2-3[^)]*\\)|rank [23] \\(node n2[^)]*\\))" ;;
  link)
    use_plugin slow_action=drain
    multi_job_script job.sh "srun --mpi=pmix ./halo_waitall --seconds 400 --progress 10 --pid-dir $WORK/pids"
    # A node's link is judged on 20 readings or more, one every 4th round (decision-rule.md §5).
    id=$(submit --hang-detect=slow_baseline_rounds=128 "${MULTI_NODE[@]}" job.sh)
    ranks=(2 3) BASELINE_WAIT=240 RATE=${2:-2mbit}
    unit="node n2 \\(ranks 2-3, slow network\\)" ;;
  *) fail "usage: slow_drain.sh one|multi|notify|requeue [STOP_MS] | link [RATE] (not '$SHAPE')" ;;
esac
node="" throttler=""
# KEEP_DIR (bench/slow_srun_rate.sh): the job's output, its supervisor's log and report, and `times`
# (the fault's start and the action, Unix seconds) are copied there at the end.
keep() {
  [ -n "${KEEP_DIR:-}" ] && [ -n "${id:-}" ] || return 0
  mkdir -p "$KEEP_DIR"
  cp "$WORK/out.$id" "$WORK"/jobsentry-"$id"*.json "$KEEP_DIR"/ 2>/dev/null || true
  supervisor_log "$id" >"$KEEP_DIR/supervisor.log"
  echo "${faulted:--} ${acted:--}" >"$KEEP_DIR/times"
}
finish() {
  keep
  [ -z "$throttler" ] || kill "$throttler" 2>/dev/null || true
  [ "$SHAPE" != link ] || unlimit_link n2
  [ -z "$node" ] || [ "$SHAPE" = notify ] || scontrol update NodeName="$node" State=RESUME 2>/dev/null || true
  cleanup
}
trap finish EXIT
wait_state "$id" 60 RUNNING
wait_log "$id" "$BASELINE_WAIT" "slow verdict: baseline of .* complete"
pids=()
for r in "${ranks[@]}"; do
  for _ in $(seq 50); do [ -s "$WORK/pids/rank.$r" ] && break; sleep 0.2; done
  pids+=("$(cat "$WORK/pids/rank.$r")")
done
if [ "$SHAPE" != one ] && [ "$SHAPE" != notify ]; then node=n2; grep -q slurm_n2 "/proc/${pids[0]}/cgroup" || fail "rank ${ranks[0]} does not run on n2"
else node=$(squeue -h -j "$id" -o %N); fi
faulted=$(date +%s)
if [ "$SHAPE" = link ]; then limit_link n2 "$RATE"
else
  ( stop_s=$(awk -v m="$STOP_MS" 'BEGIN { print m / 1000 }') run_s=$(awk -v m="$STOP_MS" 'BEGIN { print (100 - m) / 1000 }')
    trap 'kill -CONT "${pids[@]}" 2>/dev/null; exit 0' TERM
    while kill -STOP "${pids[@]}" 2>/dev/null; do sleep "$stop_s"; kill -CONT "${pids[@]}" 2>/dev/null || break; sleep "$run_s"; done ) &
  throttler=$!
fi
case $SHAPE in
  notify) wait_log "$id" "$LIMIT" "slow_action notify: signal 10 sent to the batch shell" ;;
  requeue) wait_log "$id" "$LIMIT" "slow_action requeue_exclude: job requeued without n2" ;;
  *) wait_log "$id" "$LIMIT" "node $node set DRAIN: " ;;
esac
acted=$(date +%s)
[ "$SHAPE" != link ] || unlimit_link n2
kill "$throttler" 2>/dev/null || true
wait "$throttler" 2>/dev/null || true
throttler=""
show=$(scontrol show node "$node")
state=$(sed -n 's/.*State=\([A-Z_+]*\).*/\1/p' <<<"$show" | head -1)
reason=$(sed -n 's/.*Reason=\(.*\)/\1/p' <<<"$show" | head -1)
if [ "$SHAPE" = notify ]; then
  for _ in $(seq 100); do grep -q JOB-NOTIFIED-SLOW "$WORK/out.$id" && break; sleep 0.1; done
  grep -q JOB-NOTIFIED-SLOW "$WORK/out.$id" || fail "the batch shell of job $id never got SIGUSR1"
  [ "$(grep -c JOB-NOTIFIED-SLOW "$WORK/out.$id")" = 1 ] || fail "the batch shell of job $id was signalled more than once"
  [[ "$state" != *DRAIN* ]] || fail "node $node was drained under slow_action=notify"
  action="batch shell signalled once, node $node left $state"
else
  [[ "$state" == *DRAIN* ]] || fail "node $node is $state after the supervisor said it drained it"
  [[ "$reason" =~ ^"jobsentry job $id: slow: "$unit ]] || fail "the drain reason of $node does not name job $id and $unit: '$reason'"
  action="node $node DRAINED, reason '$reason'"
fi
if [ "$SHAPE" = requeue ]; then
  # The job's second run: excluded from n2 (and n2 drained anyway), on three other nodes.
  # A requeued job waits for its BeginTime (about 2 min in 22.05); made eligible now.
  wait_state "$id" 30 PENDING RUNNING
  scontrol update jobid="$id" StartTime=now 2>/dev/null || true
  for _ in $(seq 300); do
    [ "$(scontrol show job "$id" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p')" = 1 ] && [ "$(state "$id")" = RUNNING ] && break
    sleep 0.2
  done
  record=$(scontrol show job "$id")
  [ "$(state "$id")" = RUNNING ] && grep -q "Restarts=1" <<<"$record" || fail "job $id did not run again after its requeue: $(grep -E 'JobState|Restarts' <<<"$record")"
  excluded=$(sed -n 's/.* ExcNodeList=\([^ ]*\).*/\1/p' <<<"$record")
  ran_on=$(sed -n 's/^ *NodeList=\([^ ]*\).*/\1/p' <<<"$record")
  [[ ",$excluded," == *",n2,"* ]] || fail "job $id does not exclude n2 after its requeue: ExcNodeList=$excluded"
  [[ "$(scontrol show hostnames "$ran_on" | paste -sd,)" != *n2* ]] || fail "job $id runs on n2 again: $ran_on"
  grep -q "^RUN restart=1 " "$WORK/out.$id" || fail "the batch script of job $id did not start again"
  action="$action; job requeued, running again on $ran_on (ExcNodeList=$excluded)"
else
  [ "$(state "$id")" = RUNNING ] || fail "job $id is $(state "$id") after the slow verdict: it must run on"
fi
supervisor_log "$id" | contains "HANG detected" && fail "a hang was claimed for a rank that was only slowed"
if [ "$SHAPE" != one ] && [ "$SHAPE" != notify ]; then
  # srun's tasks are root's slurmstepd's children: the job's output count is what the job's own srun
  # wrote (discovery.h), and it grows with rank 0's progress lines. The first run's only: a requeued
  # job's next supervisor appends to the same log, and its srun counts from 0 again.
  counts=$(supervisor_log "$id" | sed -n '1,/slow_action requeue_exclude: job requeued/p' |
    sed -n 's/.* record:.* out=\([0-9]*\).*/\1/p')
  [ "$(wc -l <<<"$counts")" -ge 10 ] && [ "$(tail -1 <<<"$counts")" -gt "$(head -1 <<<"$counts")" ] ||
    fail "the output counts of srun job $id do not grow: $(head -3 <<<"$counts" | paste -sd' ') ... $(tail -1 <<<"$counts")"
  action="$action; srun wrote $(head -1 <<<"$counts") -> $(tail -1 <<<"$counts") B"
fi
# The live job record now (accounting gets it when the job ends), sacct after the end.
live=$(scontrol show job "$id" | sed -n 's/^ *AdminComment=//p')
[[ "$live" =~ "jobsentry slow: "$unit ]] || fail "the AdminComment of running job $id does not name $unit slow: '$live'"
scancel "$id"
wait_state "$id" 60 CANCELLED COMPLETED
# slurmctld takes no AdminComment of a cancelled job: the supervisor ends
# without retrying, which would keep the job's slurmstepd for a minute.
expect_supervisor_gone "$id"
comment=$(sacct_field "$id" AdminComment)
[[ "$comment" =~ "jobsentry slow: "$unit ]] || fail "sacct's AdminComment of job $id does not name $unit slow: '$comment'"
if [ "$SHAPE" = link ]; then fault="n2's link limited to $RATE"
else fault="rank(s) ${ranks[*]} stopped $STOP_MS ms of every 100 ms"; fi
pass "job $id ($SHAPE): $fault; $((acted - faulted)) s after the fault began: $action; AdminComment '$comment'; no hang claimed"
