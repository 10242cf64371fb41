#!/usr/bin/env bash
# Bad input: an invalid --hang-detect value is refused by sbatch with a
# message naming the key and what is accepted, and no job is created; a bad
# plugstack.conf argument disables the plugin (logged) but never fails a job.
. "$(dirname "$0")/lib.sh"
job_script fine.sh "sleep 2"
last_job() { sacct -a -X -n -P -o JobID -S now-1days 2>/dev/null | sort -n | tail -1; }
before=$(last_job)
for bad in alpha=2 interval=400 action=kill ranks=0 colour=red; do
  status=0
  out=$(as_user sbatch --chdir="$WORK" --hang-detect="$bad" "$WORK/fine.sh" 2>&1) || status=$?
  echo "--hang-detect=$bad -> status $status: $out"
  [ "$status" -ne 0 ] || fail "sbatch accepted --hang-detect=$bad"
  key=${bad%%=*}
  grep -q -- "$bad" <<<"$out" || fail "the message does not name '$bad'"
  grep -qE "accepted (values|keys) are" <<<"$out" || fail "the message does not say what is accepted"
  [[ "$out" != *"Submitted batch job"* ]] || fail "a job was submitted"
done
[ "$(last_job)" = "$before" ] || fail "a job was created by a refused submission"

# A bad site argument: logged, plugin disabled, jobs run as if it were absent.
use_plugin default=maybe
id=$(submit --hang-detect fine.sh)
wait_state "$id" 60 COMPLETED
grep -q "jobsentry: disabled: plugstack.conf argument default=maybe" "/var/log/jobsentry-cluster/slurmd-$(hostname -s).log" ||
  fail "slurmd.log does not explain the disabled plugin"
pass "bad --hang-detect values refused at submission; a bad plugstack argument disables the plugin only"
