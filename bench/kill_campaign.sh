#!/usr/bin/env bash
# The supervisor SIGKILLed at random moments, N times, on running jobs
# (issue #19): after every kill no rank may be left stopped or traced, and
# every job must end with its normal result.
#
# As under Slurm, the supervisor is a process apart from the job: a 4-rank
# hangprog job runs under mpirun, started here, and `jobsentry watch --attach`
# watches it; each supervisor is killed, the ranks are checked, a new one
# attaches. A third of the kills fall a random 0.2..MAX_DELAY s after the
# start; a third after such a delay as soon as a rank is seen seized by the
# supervisor (TracerPid), which is when a rank is ptrace-stopped; a third once
# the supervisor has logged the start of a verification (waited for up to
# 3 x MAX_DELAY s), as soon as a rank is seen seized. The
# supervisor is made to verify often (--alpha 0.4 on --long-phases, where
# ranks wait for rank 0 for seconds): its log's last line at the kill tells
# sampling from verification (a kill before the first sample's line with a
# rank seized is in that first sample). --action report: a false alarm must
# never end the job.
#   bash bench/kill_campaign.sh [N] [KILLS_PER_JOB] [MAX_DELAY_S]
# Exit status 1 when a rank was left stopped or traced or a job failed.
. "$(dirname "$0")/common.sh"
N=${1:-100}
PER_JOB=${2:-25}
MAX_DELAY=${3:-8}
NP=4
WATCH_OPTS=(--action report --alpha 0.4 --interval-ms 20 --verify-rounds 2 --spin-verify-ms 300 --verbose)

field() { local k v _; { while read -r k v _; do [ "$k" = "$2:" ] && { echo "$v"; return; }; done <"/proc/$1/status"; } 2>/dev/null || true; }  # "" once the process is gone
traced_by() {  # traced_by SUPERVISOR_PID: is a rank seized by it now?
  local p; for p in "${ranks[@]}"; do [ "$(field "$p" TracerPid)" = "$1" ] && return 0; done; return 1
}
phase_of() {  # the supervisor's phase from the last line of its log
  local last
  last=$(grep -E 'verification [0-9]+ begins|verification round|alarm cleared|HANG detected|jobsentry: sample ' "$1" | tail -1)
  case "$last" in
    "") echo startup ;;
    *"begins"* | *"verification round"*) echo verification ;;
    *) echo sampling ;;
  esac
}
# check_ranks: counts ranks still stopped (T/t) or traced 1 s after the kill.
check_ranks() {
  local p s t
  for _ in $(seq 20); do
    bad=0
    for p in "${ranks[@]}"; do
      s=$(field "$p" State); t=$(field "$p" TracerPid)
      [ -z "$s" ] && continue  # the rank has ended
      { [ "$s" = T ] || [ "$s" = t ] || [ "$t" != 0 ]; } && bad=1
    done
    [ "$bad" = 0 ] && break
    sleep 0.05
  done
  for p in "${ranks[@]}"; do
    s=$(field "$p" State); t=$(field "$p" TracerPid)
    [ -z "$s" ] && continue
    case "$s" in T | t) left_stopped=$((left_stopped + 1)); echo "rank pid $p left in state $s" >&2 ;; esac
    [ "$t" != 0 ] && { left_traced=$((left_traced + 1)); echo "rank pid $p left traced by $t" >&2; }
  done
  return 0
}

wait_random() { sleep "$(awk -v r=$RANDOM -v m="$MAX_DELAY" 'BEGIN {printf "%.3f", 0.2 + (m - 0.2) * r / 32767}')"; }
# Both return 0 when they give up: under set -e a 1 would end the campaign.
wait_seized() { for _ in $(seq 2000); do traced_by "$sup" || ! kill -0 "$job" 2>/dev/null && break; done; return 0; }
wait_verification() {  # until the supervisor logs a verification, at most 3 x MAX_DELAY
  for _ in $(seq $((MAX_DELAY * 30))); do grep -q "verification [0-9]* begins" "$dir/sup.err" && return; sleep 0.1; done
  return 0
}

tried=0 during_sampling=0 during_verification=0 during_startup=0 rank_seized=0
left_stopped=0 left_traced=0 jobs=0 jobs_ok=0
start=$(date +%s)
while [ "$tried" -lt "$N" ]; do
  jobs=$((jobs + 1))
  dir=$SCRATCH/job$jobs; mkdir -p "$dir"
  kills=$((N - tried < PER_JOB ? N - tried : PER_JOB))
  # Room for the kills on average (MAX_DELAY/2 + ~1 s each): the job's end
  # is awaited after the last kill; kills that do not fit go to a next job.
  seconds=$(awk -v k="$kills" -v m="$MAX_DELAY" 'BEGIN {printf "%d", k * (m / 2 + 2.5) + 10}')
  mpirun --oversubscribe -np $NP "$HANGPROG" --seconds "$seconds" --long-phases --pid-dir "$dir" \
    >"$dir/job.out" 2>"$dir/job.err" &
  job=$!
  job_end=$(($(date +%s) + seconds))
  for _ in $(seq 1200); do [ "$(cat "$dir"/rank.* 2>/dev/null | wc -l)" = $NP ] && break; sleep 0.05; done
  ranks=(); for r in $(seq 0 $((NP - 1))); do ranks+=("$(cat "$dir/rank.$r" 2>/dev/null || echo 0)"); done
  for k in $(seq "$kills"); do
    [ $(($(date +%s) + 3 * MAX_DELAY + 3)) -lt "$job_end" ] && kill -0 "$job" 2>/dev/null || break
    "$JOBSENTRY" watch "${WATCH_OPTS[@]}" --report "$dir/report.json" --attach "$job" 2>"$dir/sup.err" &
    sup=$!
    case $((k % 3)) in
      0) wait_random ;;
      1) wait_random; wait_seized ;;
      2) wait_verification; wait_seized ;;
    esac
    seized=0; traced_by "$sup" && seized=1
    phase=$(phase_of "$dir/sup.err")
    kill -KILL "$sup" 2>/dev/null || true
    wait "$sup" 2>/dev/null || true
    tried=$((tried + 1))
    rank_seized=$((rank_seized + seized))
    [ "$phase" = startup ] && [ "$seized" = 1 ] && phase=sampling
    case $phase in
      sampling) during_sampling=$((during_sampling + 1)) ;;
      verification) during_verification=$((during_verification + 1)) ;;
      *) during_startup=$((during_startup + 1)) ;;
    esac
    check_ranks
  done
  status=0; wait "$job" || status=$?
  # Its normal result: exit 0, every rank ended, no error printed by MPI.
  if [ "$status" = 0 ] && ! grep -qiE 'error|abort|signal' "$dir/job.err"; then jobs_ok=$((jobs_ok + 1))
  else
    echo "job $jobs: mpirun exited $status; its stderr ends with:" >&2; tail -5 "$dir/job.err" >&2
    echo "the last supervisor's log ends with:" >&2; tail -5 "$dir/sup.err" >&2 2>/dev/null || true
  fi
done
elapsed=$(($(date +%s) - start))

echo "| kills tried | during sampling | during verification | before the first sample | with a rank seized at the kill | ranks left stopped | ranks left traced | jobs completed with the right result | time (s) |"
echo "|---|---|---|---|---|---|---|---|---|"
echo "| $tried | $during_sampling | $during_verification | $during_startup | $rank_seized | $left_stopped | $left_traced | $jobs_ok / $jobs | $elapsed |"
[ "$left_stopped" = 0 ] && [ "$left_traced" = 0 ] && [ "$jobs_ok" = "$jobs" ]
