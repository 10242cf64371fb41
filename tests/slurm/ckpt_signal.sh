#!/usr/bin/env bash
# --checkpoint=signal:USR1 alone (no hang detection): with the site's
# mtbf=20s and the user's cost=400ms, the Young/Daly period of a one-node job
# is sqrt(2 C MTBF) = 4 s. The batch script traps USR1 and records the times:
# at least two signals arrive, spaced by about the period (+ C, the schedule
# assumes the checkpoint took C), the job's environment carries
# JOBSENTRY_MTBF, and sacct's AdminComment names the period. A bad signal is
# refused at submission naming the accepted ones. A second job, at the same
# time, asks for both --hang-detect and --checkpoint=signal:USR2 around a real
# MPI run: the one supervisor samples and signals, only the batch shell gets
# the signal (mpirun and its ranks run on), and the no-hang verdict carries
# the checkpoint clause.
. "$(dirname "$0")/lib.sh"
use_plugin mtbf=20s
MTBF=20 COST=0.4
period=$(printf "%.3f" "$(echo "sqrt(2 * $COST * $MTBF)" | bc -l)")   # 4.000
period_text=$(printf '%.1fs' "$period")

# Bad input: no job is created.
job_script bad.sh 'true'
before=$(squeue -h -u "$TEST_USER" | wc -l)
if err=$(as_user sbatch --parsable --chdir="$WORK" --checkpoint=signal:KILL "$WORK/bad.sh" 2>&1); then
  echo "$err" | grep -Eo '^[0-9]+' >>"$JOBS_FILE" || true
  fail "sbatch accepted --checkpoint=signal:KILL: $err"
fi
[[ "$err" == *"accepted signals are USR1, USR2, HUP, INT, TERM, ALRM"* ]] ||
  fail "the refusal does not name the accepted signals: $err"
[ "$(squeue -h -u "$TEST_USER" | wc -l)" -eq "$before" ] || fail "a job was created for a refused --checkpoint"

job_script job.sh \
  "echo \"START \$(date +%s.%N) MTBF=\$JOBSENTRY_MTBF\"" \
  "trap 'echo \"SIGNAL \$(date +%s.%N)\"' USR1" \
  'for i in $(seq 150); do sleep 0.1; done'
install -o "$TEST_USER" -m 0755 "$INSTALL/hangprog" "$WORK/hangprog"
job_script both.sh \
  "echo \"START \$(date +%s.%N)\"" \
  "trap 'echo \"SIGNAL \$(date +%s.%N)\"' USR2" \
  'mpirun -np 4 ./hangprog --seconds 14 &' \
  'app=$!' \
  'while ! wait $app; do kill -0 $app 2>/dev/null || exit 1; done'  # wait returns early for each trapped signal
id=$(submit --checkpoint=signal:USR1,cost=400ms -n 1 job.sh)
both=$(submit --hang-detect --checkpoint=signal:USR2,cost=400ms -n 4 both.sh)
wait_state "$id" 60 RUNNING
wait_state "$id" 60 COMPLETED FAILED CANCELLED
wait_state "$both" 60 COMPLETED FAILED CANCELLED
out="$WORK/out.$id"
[ "$(sacct_field "$id" State)" = COMPLETED ] || fail "job $id ended $(sacct_field "$id" State), expected COMPLETED"
grep -q "MTBF=20000ms" "$out" || fail "JOBSENTRY_MTBF not in the job's environment: $(head -1 "$out")"
start=$(sed -n 's/^START \([0-9.]*\).*/\1/p' "$out")
mapfile -t sig < <(sed -n 's/^SIGNAL \([0-9.]*\)/\1/p' "$out")
echo "job $id: period $period s; signals at +$(for t in "${sig[@]}"; do printf '%.2f ' "$(echo "$t - $start" | bc)"; done)s"
[ "${#sig[@]}" -ge 2 ] || fail "job $id got ${#sig[@]} checkpoint signals in 15 s, expected at least 2"
first=$(echo "${sig[0]} - $start" | bc)
(( $(echo "$first > $period - 1 && $first < $period + 2.5" | bc) )) ||
  fail "first signal $first s after the start, expected about $period s"
for ((i = 1; i < ${#sig[@]}; i++)); do
  gap=$(echo "${sig[i]} - ${sig[i-1]}" | bc)
  (( $(echo "$gap > $period - 0.5 && $gap < $period + $COST + 1" | bc) )) ||
    fail "signals $i and $((i+1)) are $gap s apart, expected about $period + $COST s"
done
comment=$(sacct_field "$id" AdminComment)
echo "AdminComment: $comment"
[[ "$comment" == "jobsentry: hang detection off; checkpoint every $period_text by SIGUSR1 (Young/Daly, C=400ms, job MTBF 20.0s; ${#sig[@]} sent)" ]] ||
  fail "AdminComment does not name the period $period_text and ${#sig[@]} signals: '$comment'"
expect_supervisor_gone "$id"

[ "$(sacct_field "$both" State)" = COMPLETED ] || fail "job $both ended $(sacct_field "$both" State): the checkpoint signal reached more than the batch shell?"
n=$(grep -c '^SIGNAL ' "$WORK/out.$both" || true)
[ "$n" -ge 2 ] || fail "job $both got $n checkpoint signals, expected at least 2"
comment=$(sacct_field "$both" AdminComment)
echo "job $both: $n SIGUSR2; AdminComment: $comment"
[[ "$comment" =~ ^jobsentry:\ no\ hang\;\ [0-9]+\ samples(\;\ supervisor\ CPU\ [0-9.]+\ %\ of\ the\ job)?\;\ checkpoint\ every\ $period_text\ by\ SIGUSR2\ \(Young/Daly,\ C=400ms,\ job\ MTBF\ 20.0s\;\ $n\ sent\)$ ]] ||
  fail "AdminComment of job $both is '$comment'"
pass "job $id: ${#sig[@]} SIGUSR1 at the Young/Daly period $period_text; job $both: hang detection and $n SIGUSR2; refused signal:KILL at submission"
