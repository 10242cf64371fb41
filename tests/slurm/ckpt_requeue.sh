#!/usr/bin/env bash
# Issue 6 through Slurm requeue: ckpt_app checkpoints to files through
# jobsentry_ckpt.h, with λ from the JOBSENTRY_MTBF the plugin put in the job's
# environment (site mtbf=20s, ckpt_cost=2ms: a checkpoint every few tenths of a
# second). Once it has checkpointed past the middle, one rank is stopped
# (SIGSTOP, a hang); --hang-detect=action=requeue --requeue puts the job back
# in the queue; the restarted run resumes from the last complete checkpoint and
# prints the same result as an uninterrupted run computed here; the
# AdminComment keeps the earlier run's verdict and records the Young/Daly period.
. "$(dirname "$0")/lib.sh"
use_plugin mtbf=20s ckpt_cost=2ms
ITER=400
period_text=283ms  # sqrt(2 * 0.002 s * 20 s) = 0.283 s for one node
APP=(ckpt_app --iterations "$ITER" --sleep-ms 50)
install -o "$TEST_USER" -m 0755 "$INSTALL/ckpt_app" "$WORK/ckpt_app"
latest() { [ -f "$1/latest" ] && od -An -t d8 "$1/latest" | tr -d ' ' || echo -1; }

# The reference: the same computation, uninterrupted, outside Slurm (no sleep:
# the result does not depend on timing).
as_user mkdir "$WORK/ref"
(cd "$WORK" && as_user env LD_LIBRARY_PATH="$INSTALL" OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1 \
  mpirun -np 4 ./ckpt_app --iterations "$ITER" --sleep-ms 0 --dir "$WORK/ref" >"$WORK/ref.out" 2>"$WORK/ref.err") ||
  fail "reference run failed: $(tail -3 "$WORK/ref.err")"
grep -q '^result ' "$WORK/ref.out" || fail "reference run printed no result"

as_user mkdir "$WORK/ckpt"
job_script job.sh \
  "echo \"RUN restart=\${SLURM_RESTART_COUNT:-0} MTBF=\$JOBSENTRY_MTBF COST=\$JOBSENTRY_CKPT_COST\" >&2" \
  "LD_LIBRARY_PATH=$INSTALL mpirun -np 4 -x LD_LIBRARY_PATH ./${APP[*]} --dir $WORK/ckpt"
id=$(submit --hang-detect=action=requeue --requeue --open-mode=append -n 4 job.sh)
wait_state "$id" 60 RUNNING
# Past the model's learning samples and the middle of the run: stop rank 2.
for _ in $(seq 600); do
  [ "$(latest "$WORK/ckpt")" -ge $((ITER * 6 / 10)) ] && break
  [ "$(state "$id")" = RUNNING ] || break
  sleep 0.1
done
at=$(latest "$WORK/ckpt")
[ "$at" -ge $((ITER * 6 / 10)) ] || fail "no checkpoint past iteration $((ITER * 6 / 10)) (latest $at)"
kill -STOP "$(cat "$WORK/ckpt/pid2")"
echo "job $id: rank 2 stopped after the checkpoint of iteration $at"
restarts() { scontrol show job "$id" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p'; }
for _ in $(seq 300); do [ "$(restarts)" -ge 1 ] && break; sleep 0.2; done
[ "$(restarts)" -ge 1 ] || fail "job $id not requeued 60 s after the hang"
resume_at=$(latest "$WORK/ckpt")
# A requeued job waits for its BeginTime (about 2 min in 22.05); make it eligible now.
wait_state "$id" 30 PENDING RUNNING
echo "job $id requeued at $(date +%H:%M:%S): $(scontrol show job "$id" | grep -o 'JobState=[A-Z]*\|Reason=[^ ]*\|EligibleTime=[^ ]*' | tr '\n' ' ')"
scontrol update jobid="$id" StartTime=now 2>/dev/null || true
wait_state "$id" 90 COMPLETED FAILED CANCELLED
out="$WORK/out.$id"
grep -q "RUN restart=1 MTBF=20000ms COST=2ms" "$out" || fail "the restarted run did not see JOBSENTRY_MTBF/JOBSENTRY_CKPT_COST: $(grep RUN "$out")"
grep -q "resumed from iteration $resume_at\$" "$out" ||
  fail "the restarted run did not resume from the checkpoint of iteration $resume_at: $(grep -E 'resumed|RUN' "$out")"
grep -q "rule young-daly" "$out" || fail "the Young/Daly rule was not in force: $(grep rule "$out")"
[ "$(grep -c '^result ' "$out")" -eq 1 ] || fail "expected one result line (the restarted run's): $(grep '^result ' "$out")"
[ "$(grep '^result ' "$out")" = "$(cat "$WORK/ref.out")" ] ||
  fail "result differs: $(grep '^result ' "$out") vs reference $(cat "$WORK/ref.out")"
[ "$(sacct_field "$id" State)" = COMPLETED ] || fail "job $id ended $(sacct_field "$id" State)"
sacct -j "$id" -D -X -n -P -o State | contains REQUEUED || fail "sacct does not show the REQUEUED run"
comment=$(sacct_field "$id" AdminComment)
echo "AdminComment: $comment"
[[ "$comment" == "jobsentry: no hang; "*"; Young/Daly period $period_text (C=2ms guess, job MTBF 20.0s)"*" -- earlier run: jobsentry: hang at "*"suspect ranks 2; action requeue; "*"Young/Daly period $period_text"* ]] ||
  fail "AdminComment lacks the restarted run's verdict, the earlier hang or the period $period_text: '$comment'"
pass "job $id: hung after the checkpoint of iteration $at, requeued, resumed from $resume_at, same result $(cat "$WORK/ref.out")"
