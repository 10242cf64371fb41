#!/usr/bin/env bash
# The README's main job exactly as a newcomer runs it (scripts/demo.sh),
# against this build: the job must end CANCELLED by jobsentry, sacct must
# show the verdict naming rank 2, and the report in the job's directory
# must name rank 2 as the suspect. The main job can no longer break silently.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
: "${BUILD:?set by CTest}"
out=$(mktemp /tmp/jobsentry-demo-test.XXXXXX)
trap 'rm -f "$out"' EXIT
status=0
bash "$SRC/scripts/demo.sh" --built "$BUILD" >"$out" 2>&1 || status=$?
cat "$out"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$status" -eq 0 ] || fail "scripts/demo.sh exited $status"
id=$(sed -n 's/^== job \([0-9]*\) submitted.*/\1/p' "$out")
[ -n "$id" ] || fail "the demo printed no job id"
grep -q "^== job $id is CANCELLED" "$out" || fail "job $id did not end CANCELLED"
comment=$(sacct -j "$id" -X -n -P -o AdminComment)
[[ "$comment" == "jobsentry: hang at "*"suspect ranks 2;"* ]] || fail "AdminComment of job $id: '$comment'"
home=$(getent passwd jsuser | cut -d: -f6)
report=$home/jobsentry-demo/jobsentry-$id.txt
[ -f "$report" ] || fail "no report $report"
grep -q "^  verdict: *hang" "$report" || fail "the report's verdict is not hang: $(head -3 "$report")"
grep -q "^  suspects: *rank 2$" "$report" || fail "the report does not name rank 2 alone: $(grep suspects "$report")"
echo "PASS: the demo's job $id was cancelled, sacct says '$comment', the report names rank 2"
