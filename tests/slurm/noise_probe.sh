#!/usr/bin/env bash
# --noise-probe: the OS-noise probe runs on the job's node before its script
# starts, the full result lands in the job's directory as the user's file,
# and the summary clause stays in sacct's AdminComment next to the hang
# detector's verdict. Bad durations are refused at submission. With the
# site's noise_baseline (a healthy node's `jobsentry noise --json`), a node
# whose PUs are shared with a CPU hog is named NOISY; the same node without
# the hog is not; under the site's slow_action=drain the NOISY node is also
# set DRAIN (the reason naming the job) and resumed here after.
. "$(dirname "$0")/lib.sh"
install -o "$TEST_USER" -m 0755 "$INSTALL/hangprog" "$WORK/hangprog"
node=$(hostname -s)

for bad in 0s 2 1h fast; do
  out=$(as_user sbatch --noise-probe=$bad --chdir="$WORK" --wrap true 2>&1) && fail "sbatch --noise-probe=$bad was accepted: $out"
  [[ "$out" == *"--noise-probe=$bad: accepted values are off or a duration"* ]] ||
    fail "sbatch --noise-probe=$bad: unclear refusal: $out"
done

# The site's baseline, in the probe's JSON form (that the probe's own output
# is read: test_noise_health.cpp): 3 % per PU, written here rather than
# measured, so that the verdicts do not hang on the host's load at the
# moment. Factor 10 puts the line at 30 %: an idle PU of a quiet host
# measures 0.3 %, of a virtual machine with busy neighbours 5-9 %, and up to
# 18 % at a job's start, when this one-node cluster's own daemons (slurmctld,
# slurmdbd, MariaDB) share its two PUs; a hog sharing each PU takes half of
# it (53-56 %).
printf '{"pus": [{"cpu": 0, "noise_percent": 3.0}, {"cpu": 1, "noise_percent": 3.0}]}\n' >"$WORK/baseline.json"
use_plugin "noise_baseline=$WORK/baseline.json" noise_factor=10
job_script job.sh 'date +SCRIPT-START\ %s.%N' "mpirun -np 2 ./hangprog --seconds 8"
id=$(submit --noise-probe=1500ms --hang-detect -n 2 job.sh)
wait_state "$id" 90 COMPLETED
result="$WORK/jobsentry-noise-$id.$node.json"
[ -f "$result" ] || fail "no noise result $result"
[ ! -L "$result" ] || fail "$result is a symlink"
[ "$(stat -c %U "$result")" = "$TEST_USER" ] || fail "$result belongs to $(stat -c %U "$result"), not $TEST_USER"
[ "$(jq -r .job_id "$result")" = "$id" ] || fail "$result names another job"
pus=$(jq '.pus | length' "$result")
[ "$pus" -ge 1 ] || fail "$result measured no PU"
jq -e '.pus | all(has("cpu") and has("noise_percent") and has("max_detour_ns") and has("resolution_ns"))' "$result" >/dev/null ||
  fail "$result lacks per-PU figures: $(head -c 400 "$result")"
# The noisiest PU's detours beside it, the user's, in the form simulate --noise-trace reads.
tsv="$WORK/jobsentry-noise-$id.$node.tsv"
[ -f "$tsv" ] && [ ! -L "$tsv" ] && [ "$(stat -c %U "$tsv")" = "$TEST_USER" ] || fail "no noise trace $tsv of $TEST_USER"
[ "$(jq -r .noise_trace.file "$result")" = "$tsv" ] || fail "$result does not name its trace"
head -1 "$tsv" | contains '^# period_ns [0-9]*$' || fail "$tsv does not start with its period"
printf 'num_ranks 2\nrank 0 {\nl1: calc 1000000\nl2: send 8b to 1 tag 1\nl2 requires l1\n}\nrank 1 {\nl1: recv 8b from 0 tag 1\n}\n' \
  >"$WORK/app.goal"
"$JOBSENTRY_BIN" simulate --goal "$WORK/app.goal" --noise-trace "$tsv" --json | jq -e '.slowdown >= 1' >/dev/null ||
  fail "simulate does not take the job's noise trace"
started=$(sed -n 's/^SCRIPT-START //p' "$WORK/out.$id")
written=$(date -r "$result" +%s.%N)
(( $(echo "$written <= $started" | bc) )) || fail "the script started at $started, before the probe ended ($written)"
comment=$(sacct_field "$id" AdminComment)
echo "job $id: AdminComment: $comment"
[[ "$comment" =~ ^jobsentry:\ no\ hang\;\ [0-9]+\ samples(\;\ supervisor\ CPU\ [0-9.]+\ %\ of\ the\ job)?\ --\ jobsentry\ noise\ $node:\ worst\ PU\ [0-9]+\ [0-9.]+%,\ max\ detour\ [0-9.]+(us|ms)\ \([0-9]+\ PUs?,\ 1.5s\)\;\ [0-9.]+x\ the\ site\ baseline\ [0-9.]+%$ ]] ||
  fail "AdminComment of job $id lacks the verdict or the noise clause: '$comment'"
[ ! -e "/run/jobsentry-test/job_$id.noise" ] || fail "the probe's mark of job $id is left behind"
[ "$(jq -r .health.noisy "$result")" = false ] || fail "$result: a quiet node judged NOISY: $(jq -c .health "$result")"

# A real fault: a CPU hog on every PU of the node while the job starts; the
# site drains NOISY nodes (slow_action=drain).
use_plugin "noise_baseline=$WORK/baseline.json" noise_factor=10 slow_action=drain
trap 'scontrol update NodeName="$node" State=RESUME 2>/dev/null || true; cleanup' EXIT
hogs=()
for cpu in $(seq 0 $(($(nproc) - 1))); do taskset -c "$cpu" bash -c 'while :; do :; done' & hogs+=($!); done
job_script short.sh "true"
noisy=$(submit --noise-probe=1s short.sh)
wait_state "$noisy" 60 COMPLETED
kill "${hogs[@]}"; wait "${hogs[@]}" 2>/dev/null || true
noisy_comment=$(sacct_field "$noisy" AdminComment)
echo "job $noisy (CPU hogs on every PU): AdminComment: $noisy_comment"
[[ "$noisy_comment" =~ jobsentry\ noise\ $node:\ worst\ PU\ [0-9]+\ [0-9.]+%.*\;\ NOISY\ [0-9.]+x\ the\ site\ baseline\ [0-9.]+%$ ]] ||
  fail "job $noisy ran beside CPU hogs but its node is not named NOISY: '$noisy_comment'"
jq -e '.health.noisy == true and .health.factor >= 10' "$WORK/jobsentry-noise-$noisy.$node.json" >/dev/null ||
  fail "the noisy node's result lacks its verdict: $(jq -c .health "$WORK/jobsentry-noise-$noisy.$node.json")"
show=$(scontrol show node "$node")
[[ "$(sed -n 's/.*State=\([A-Z_+]*\).*/\1/p' <<<"$show" | head -1)" == *DRAIN* ]] ||
  fail "the NOISY node $node was not drained under slow_action=drain: $(grep -E 'State=|Reason=' <<<"$show")"
drain_reason=$(sed -n 's/.*Reason=\(.*\)/\1/p' <<<"$show" | head -1)
[[ "$drain_reason" == "jobsentry job $noisy: NOISY at job start: worst PU "* ]] ||
  fail "the drain reason of $node does not name job $noisy and its noise: '$drain_reason'"
scontrol update NodeName="$node" State=RESUME
use_plugin "noise_baseline=$WORK/baseline.json" noise_factor=10
# A baseline the node cannot be judged against: the job completes, its AdminComment ends with
# CLAUSE, and the noise log says WHY. Prints the job's id.
#   refused BASELINE CLAUSE WHY
refused() {
  local job
  use_plugin "noise_baseline=$1"
  job=$(submit --noise-probe=200ms short.sh)
  wait_state "$job" 60 COMPLETED
  [[ "$(sacct_field "$job" AdminComment)" == *"; $2" ]] ||
    fail "job $job: baseline $1 is not said ('$2'): '$(sacct_field "$job" AdminComment)'"
  grep -qF "node health not judged: $1: $3" "$SUPERVISOR_LOGS/job_$job.noise.log" ||
    fail "job $job: the log does not say '$3' of baseline $1"
  echo "$job"
}
# Not a probe result; measured on another processor (said, never judged against).
echo '{"pus": "many"}' >"$WORK/bad-baseline.json"
bad=$(refused "$WORK/bad-baseline.json" "site baseline unreadable" "not a JSON object with a 'pus' list")
jq '.cpu_model = "Other CPU 9000"' "$WORK/baseline.json" >"$WORK/other-baseline.json"
other=$(refused "$WORK/other-baseline.json" "site baseline from other hardware" \
  "from other hardware (measured on Other CPU 9000, this node is ")
pass "job $noisy beside CPU hogs: node named NOISY and drained ('$drain_reason'); job $bad: unreadable baseline said; job $other: other hardware said"
pass "job $id probed for 1.5 s on $pus PU(s) before its script, result $result, AdminComment '$comment'"
