#!/usr/bin/env bash
# Hang-free runs must raise no alarm: the plain iterative program, and one
# where rank 0 computes alone for 3-5 s while the others wait in a barrier.
. "$(dirname "$0")/lib.sh"
MODE=${1:?plain or long-phases}
SECONDS_TO_RUN=${2:-35}
extra=()
[ "$MODE" = long-phases ] && extra=(--long-phases)
run_watch 0 -- --seconds "$SECONDS_TO_RUN" "${extra[@]}"
expect_json .verdict no_hang
expect_json '.suspect_ranks | length' 0
expect_json .command_status 0
samples=$(json .samples)
[ "$samples" -ge 30 ] || fail "only $samples samples in ${SECONDS_TO_RUN} s"
expect_cost
expect_replay_agrees none
grep -q "no hang; $samples samples; supervisor CPU" "$WORK/watch.err" || fail "no end-of-run line with the watching cost"
pass "$MODE: no alarm in $SECONDS_TO_RUN s ($samples samples, $(json .evidence.verifications) verifications," \
  "supervisor CPU $(json '.supervisor_cost.share_percent * 1000 | round / 1000') % of the job's)"
