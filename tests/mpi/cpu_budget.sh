#!/usr/bin/env bash
# The supervisor's CPU budget (--cpu-budget, hang/model/sampling_budget.h) on a real job: 4 ranks
# confined to one CPU keep it busy, and a budget far below what sampling costs slows the healthy
# phase to the cap (4x) once the slow verdict's baseline (the shortest allowed here: the budget does
# not slow a baseline) and the budget's first window have passed. A hang injected after that is still
# found promptly and named: the budget slows healthy phases, never the run that proves a hang.
. "$(dirname "$0")/lib.sh"
MPIEXEC=(taskset -c 0 "${MPIEXEC[@]}")
WATCH_LIMIT=160 run_watch 3 --cpu-budget 0.001 --slow-baseline-rounds 32 -- --seconds 150 --hang sleep --hang-rank 1 --hang-after 38
expect_json .verdict hang
expect_json '.suspect_ranks | join(",")' 1
grep -q "sampling slowed to 4x the model's interval: .* (the job keeps its 1 CPUs busy; --cpu-budget 0.001 %)" "$WORK/watch.err" ||
  fail "the budget never slowed sampling: $(grep -E 'sampling (slowed|sped)' "$WORK/watch.err" | head -3)"
expect_json '.supervisor_cost.budget.stretch_max == 4 and .supervisor_cost.budget.full_node' true
expect_json '.supervisor_cost.budget.seconds_slowed > 2' true
expect_json '.supervisor_cost.steady_share_percent > 0' true
grep -q "sampling slowed up to 4.00x for" "$WORK/report.txt" || fail "the text report does not say sampling was slowed"
injected=$(grep -o 'HANG-INJECTED [0-9.]*' "$WORK/watch.err" | awk '{print $2}')
[ -n "$injected" ] || fail "the program never injected its hang"
delay=$(awk -v a="$injected" -v b="$(json .detected_at)" 'BEGIN { printf "%.1f", b - a }')
awk -v d="$delay" 'BEGIN { exit !(d < 25) }' || fail "the hang was found $delay s after it began (budget on): too late"
expect_no_leftovers
pass "budget slowed the healthy phase 4x; the sleep hang of rank 1 was still found $delay s after it began"
