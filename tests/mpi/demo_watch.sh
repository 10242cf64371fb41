#!/usr/bin/env bash
# The demo without Slurm exactly as a newcomer runs it (scripts/demo-watch.sh),
# against this build: jobsentry must exit 3 (hang found, job ended) and its
# report must name rank 2, the rank that fell asleep.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
: "${BUILD:?set by CTest}"
dir=$(mktemp -d /tmp/jobsentry-demo-watch.XXXXXX)
trap 'rm -rf "$dir"' EXIT
status=0
DEMO_DIR=$dir bash "$SRC/scripts/demo-watch.sh" --built "$BUILD" || status=$?
fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$status" -eq 0 ] || fail "scripts/demo-watch.sh exited $status"
[ -f "$dir/report.txt" ] || fail "no report $dir/report.txt"
grep -q "^  verdict: *hang" "$dir/report.txt" || fail "verdict: $(head -3 "$dir/report.txt")"
grep -q "^  suspects: *rank 2$" "$dir/report.txt" || fail "suspects: $(grep suspects "$dir/report.txt")"
echo "PASS: demo-watch found the hang and named rank 2"
