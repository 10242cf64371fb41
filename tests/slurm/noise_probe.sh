#!/usr/bin/env bash
# --noise-probe: the OS-noise probe runs on the job's node before its script
# starts, the full result lands in the job's directory as the user's file,
# and the summary clause stays in sacct's AdminComment next to the hang
# detector's verdict. Bad durations are refused at submission.
. "$(dirname "$0")/lib.sh"
install -o "$TEST_USER" -m 0755 "$INSTALL/hangprog" "$WORK/hangprog"
node=$(hostname -s)

for bad in 0s 2 1h fast; do
  out=$(as_user sbatch --noise-probe=$bad --chdir="$WORK" --wrap true 2>&1) && fail "sbatch --noise-probe=$bad was accepted: $out"
  [[ "$out" == *"--noise-probe=$bad: accepted values are off or a duration"* ]] ||
    fail "sbatch --noise-probe=$bad: unclear refusal: $out"
done

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
head -1 "$tsv" | grep -q '^# period_ns [0-9]*$' || fail "$tsv does not start with its period"
printf 'num_ranks 2\nrank 0 {\nl1: calc 1000000\nl2: send 8b to 1 tag 1\nl2 requires l1\n}\nrank 1 {\nl1: recv 8b from 0 tag 1\n}\n' \
  >"$WORK/app.goal"
"$JOBSENTRY_BIN" simulate --goal "$WORK/app.goal" --noise-trace "$tsv" --json | jq -e '.slowdown >= 1' >/dev/null ||
  fail "simulate does not take the job's noise trace"
started=$(sed -n 's/^SCRIPT-START //p' "$WORK/out.$id")
written=$(date -r "$result" +%s.%N)
(( $(echo "$written <= $started" | bc) )) || fail "the script started at $started, before the probe ended ($written)"
comment=$(sacct_field "$id" AdminComment)
echo "job $id: AdminComment: $comment"
[[ "$comment" =~ ^jobsentry:\ no\ hang\;\ [0-9]+\ samples(\;\ supervisor\ CPU\ [0-9.]+\ %\ of\ the\ job)?\ --\ jobsentry\ noise\ $node:\ worst\ PU\ [0-9]+\ [0-9.]+%,\ max\ detour\ [0-9.]+(us|ms)\ \([0-9]+\ PUs?,\ 1.5s\)$ ]] ||
  fail "AdminComment of job $id lacks the verdict or the noise clause: '$comment'"
[ ! -e "/run/jobsentry-test/job_$id.noise" ] || fail "the probe's mark of job $id is left behind"
pass "job $id probed for 1.5 s on $pus PU(s) before its script, result $result, AdminComment '$comment'"
