#!/usr/bin/env bash
# A single rank hangs (KIND = sleep or loop); the hang must be detected, the
# command killed (exit 3) and exactly that rank named.
# SPIN_VERIFY_MS: the spin watch of jobsentry watch and of the log's replay (mpi_hang_loop: 5 s, not
# the default 60 s, to keep the test command short; decision-rule.md says what the default costs).
. "$(dirname "$0")/lib.sh"
KIND=${1:?sleep or loop}
RANK=${2:-2}
spin=(); [ -n "${SPIN_VERIFY_MS:-}" ] && spin=(--spin-verify-ms "$SPIN_VERIFY_MS")
run_watch 3 "${spin[@]}" -- --seconds 120 --hang "$KIND" --hang-rank "$RANK" --hang-after 9
expect_json .verdict hang
expect_json '.suspect_ranks | join(",")' "$RANK"
expect_json '.ranks | length' "$NP"
expect_json "[.ranks[] | select(.rank == $RANK) | .frames[].function] | any(. == \"$([ "$KIND" = sleep ] && echo sleep_forever || echo spin_forever)\")" true
injected=$(grep -o 'HANG-INJECTED [0-9.]*' "$WORK/watch.err" | awk '{print $2}')
detected=$(json .detected_at)
[ -n "$injected" ] || fail "the program never injected its hang"
delay=$(awk -v a="$injected" -v b="$detected" 'BEGIN { printf "%.1f", b - a }')
[ -f "$WORK/report.txt" ] || fail "no text report"
grep -q "verdict:      hang" "$WORK/report.txt" || fail "text report lacks the verdict"
expect_cost
expect_replay_agrees hang "${spin[@]}"
expect_no_leftovers
pass "$KIND hang of rank $RANK detected after $delay s, rank named"
