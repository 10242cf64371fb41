#!/usr/bin/env bash
# Ranks are the job's own processes only. While a hang-free job runs, two
# processes outside the job copy a real rank's whole environment (rank number,
# SLURM_JOB_ID, ...) and sleep like a hung rank: one of another user, one of
# the job's own user. The supervisor must never take either for a rank: the
# job completes without an alarm and neither pid appears among its ranks.
. "$(dirname "$0")/lib.sh"
install -o "$TEST_USER" -m 0755 "$INSTALL/hangprog" "$WORK/hangprog"
as_user mkdir "$WORK/pids"
job_script job.sh "mpirun -np 4 ./hangprog --seconds $HANG_FREE_SECONDS --pid-dir $WORK/pids"
id=$(submit --hang-detect -n 4 job.sh)
wait_state "$id" 60 RUNNING
for _ in $(seq 100); do [ -s "$WORK/pids/rank.1" ] && break; sleep 0.2; done
rank_pid=$(cat "$WORK/pids/rank.1")
mapfile -d '' environment <"/proc/$rank_pid/environ"
grep -qz '^OMPI_COMM_WORLD_RANK=1$' "/proc/$rank_pid/environ" || fail "rank 1 has no OMPI_COMM_WORLD_RANK=1"
# Where both users can run it (WORK is the test user's alone).
FORGE=$(mktemp -d /tmp/jobsentry-forged.XXXXXX)
chmod 0755 "$FORGE"
cp /bin/sleep "$FORGE/forged"
chmod 0755 "$FORGE/forged"
runuser -u "$OTHER_USER" -- env -i "${environment[@]}" "$FORGE/forged" 300 >/dev/null 2>&1 &
as_user env -i "${environment[@]}" "$FORGE/forged" 300 >/dev/null 2>&1 &
# runuser forks: the forged processes are its children, found by their path.
for _ in $(seq 50); do
  other=$(pgrep -u "$OTHER_USER" -f "^$FORGE/forged 300" || true)
  same=$(pgrep -u "$TEST_USER" -f "^$FORGE/forged 300" || true)
  [ -n "$other" ] && [ -n "$same" ] && break
  sleep 0.1
done
[ -n "$other" ] && [ -n "$same" ] || fail "the forged processes did not start"
grep -qz '^OMPI_COMM_WORLD_RANK=1$' "/proc/$other/environ" || fail "the forgery lacks the rank's environment"
wait_state "$id" 120 COMPLETED
kill "$other" "$same" 2>/dev/null || true
rm -rf "$FORGE"
comment=$(sacct_field "$id" AdminComment)
[[ "$comment" == "jobsentry: no hang; "* ]] || fail "AdminComment of job $id is '$comment'"
log=$(supervisor_log "$id")
grep -q "found 4 ranks" <<<"$log" || fail "the supervisor did not find the job's 4 ranks"
grep "found .* ranks" <<<"$log" | contains -E "/($other|$same)[ )]" && fail "a forged process was taken for a rank"
grep -qE "found [5-9] ranks" <<<"$log" && fail "more ranks than the job has"
pass "forged ranks (pids $other of $OTHER_USER, $same of $TEST_USER) ignored; job $id: $comment"
