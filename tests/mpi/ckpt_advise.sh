#!/usr/bin/env bash
# `jobsentry ckpt advise` and `ckpt mtbf`: bad values exit 2 naming the value
# and what is accepted; good runs print the paper's numbers and the estimate.
set -euo pipefail
. "$(dirname "$0")/../contains.sh"
JOBSENTRY=${JOBSENTRY:?set by CTest}
WORK=$(mktemp -d /tmp/jobsentry-ckpt.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_error() {  # expect_error SUBCOMMAND PATTERN ARGS...
  local sub=$1 pattern=$2; shift 2
  local status=0
  "$JOBSENTRY" ckpt "$sub" "$@" >"$WORK/out" 2>"$WORK/err" || status=$?
  [ "$status" -eq 2 ] || fail "ckpt $sub $* exited $status, expected 2"
  grep -q -- "$pattern" "$WORK/err" || { cat "$WORK/err" >&2; fail "ckpt $sub $*: message lacks '$pattern'"; }
  [ ! -s "$WORK/out" ] || fail "ckpt $sub $*: printed a result despite the error"
}
good=(--mtbf 24h --nodes 128 --ckpt-cost 90s)
expect_error advise "--mtbf 0s: accepted values are positive durations" --mtbf 0s --ckpt-cost 90s
expect_error advise "--mtbf -3h" --mtbf -3h --ckpt-cost 90s
expect_error advise "--mtbf 24: accepted values are positive durations with a unit" --mtbf 24 --ckpt-cost 90s
expect_error advise "--mtbf lots" --mtbf lots --ckpt-cost 90s
expect_error advise "--mtbf is required" --ckpt-cost 90s
expect_error advise "--ckpt-cost 0s" --mtbf 24h --ckpt-cost 0s
expect_error advise "--ckpt-cost 90:" --mtbf 24h --ckpt-cost 90
expect_error advise "--nodes 0: accepted values are whole numbers" --mtbf 24h --ckpt-cost 90s --nodes 0
expect_error advise "--nodes many" --mtbf 24h --ckpt-cost 90s --nodes many
expect_error advise "--recovery -1s" "${good[@]}" --recovery -1s
expect_error advise "--downtime 1x" "${good[@]}" --downtime 1x
expect_error advise "--iter-mean 0s" "${good[@]}" --iter-mean 0s
expect_error advise "--iter-mean 50:" "${good[@]}" --iter-mean 50
expect_error advise "--iter-sd five" "${good[@]}" --iter-mean 50s --iter-sd five
expect_error advise "--dist weibull: accepted values are gamma, uniform, normal, empirical" "${good[@]}" --iter-mean 50s --dist weibull
expect_error advise "a Gamma law needs a positive standard deviation" "${good[@]}" --iter-mean 50s --dist gamma
expect_error advise "exclude each other" "${good[@]}" --iter-mean 50s --iter-file /dev/null
expect_error advise "frobnicate" "${good[@]}" --frobnicate
printf '50.1\n49s\n# comment\n-3\n' >"$WORK/times"
expect_error advise "line 4 '-3'" "${good[@]}" --iter-file "$WORK/times"
expect_error advise "cannot read" "${good[@]}" --iter-file "$WORK/missing"
printf '50s\n50s\n' >"$WORK/flat"
expect_error advise "do not vary" "${good[@]}" --iter-file "$WORK/flat" --dist gamma
"$JOBSENTRY" ckpt advise "${good[@]}" --iter-file "$WORK/flat" --json 2>/dev/null | jq -e '.k_static >= 1' >/dev/null \
  || fail "constant iteration times (empirical) failed"

# The slides' platform: λ = −ln(0.99)/55 s is a job MTBF of 5472.5 s.
"$JOBSENTRY" ckpt advise --mtbf 5472.5s --ckpt-cost 5s --recovery 5s --downtime 1s --iter-mean 50s --iter-sd 10s \
  --dist gamma --json >"$WORK/good.json" 2>"$WORK/err" || fail "good run failed: $(cat "$WORK/err")"
jq -e '.k_static == 5 and (.x_static - 4.6114 | fabs) < 2e-3 and (.w_threshold_s - 206.05 | fabs) < 0.5
       and (.young_daly_period_s - 233.93 | fabs) < 0.05 and .slowdown_dynamic > 1
       and .slowdown_dynamic <= .slowdown_dynamic_first_order and .warnings == []' "$WORK/good.json" >/dev/null \
  || fail "good run: wrong numbers: $(cat "$WORK/good.json")"
"$JOBSENTRY" ckpt advise --mtbf 5472.5s --ckpt-cost 5s --recovery 5s --downtime 1s --iter-mean 50s --iter-sd 10s \
  --dist gamma | contains "k_static 5 (x_static 4.61" || fail "text output lacks k_static 5"
# C larger than the MTBF: a warning, a degenerate but finite answer, exit 0.
"$JOBSENTRY" ckpt advise --mtbf 1h --nodes 60 --ckpt-cost 2m --iter-mean 30s --iter-sd 3s --json \
  >"$WORK/deg.json" 2>"$WORK/err" || fail "degenerate run failed"
grep -q "warning: the checkpoint cost 120s exceeds the job's MTBF 60s" "$WORK/err" || fail "no warning: $(cat "$WORK/err")"
grep -qi nan "$WORK/deg.json" && fail "NaN in the degenerate answer"
jq -e '.k_static == 2 and .w_threshold_s > 0 and .w_threshold_s < 60 and .slowdown_static > 10' "$WORK/deg.json" \
  >/dev/null || fail "degenerate answer is wrong: $(cat "$WORK/deg.json")"
# Iterations longer than the MTBF: every iteration, finite numbers.
"$JOBSENTRY" ckpt advise --mtbf 1h --nodes 360 --ckpt-cost 2m --iter-mean 30s --iter-sd 3s --dist uniform --json \
  >"$WORK/deg.json" 2>/dev/null || fail "degenerate run failed"
jq -e '.k_static == 1 and .w_threshold_s < 30 and (.x_static | type) == "number"' "$WORK/deg.json" >/dev/null \
  || fail "degenerate answer is not 'every iteration': $(cat "$WORK/deg.json")"
grep -qi nan "$WORK/deg.json" && fail "NaN in the degenerate answer"
"$JOBSENTRY" ckpt advise --help | contains -- "--ckpt-cost" || fail "--help lacks options"

# jobsentry ckpt mtbf: the per-node MTBF from saved `sacctmgr -n -P list event` output.
printf '%s\n' 'n01|2026-10-03T00:00:00|2026-10-03T02:00:00|DOWN|Not responding' \
  'n02|2026-10-05T00:00:00|Unknown|DRAIN|maintenance' 'n03|2026-10-20T00:00:00|Unknown|DOWN*|x' \
  'n04|2026-11-02T00:00:00|Unknown|DOWN|after the window' >"$WORK/events"
window=(--from 2026-10-01T00:00:00 --to 2026-11-01T00:00:00)
expect_error mtbf "--cluster-nodes 0: accepted values are whole numbers" --events "$WORK/events" --cluster-nodes 0 "${window[@]}"
expect_error mtbf "--from 2026-10-01 .*accepted values are times like" --events "$WORK/events" --cluster-nodes 100 --from 2026-10-01 --to 2026-11-01T00:00:00
expect_error mtbf "cannot read" --events "$WORK/missing" --cluster-nodes 100 "${window[@]}"
expect_error mtbf "events" --cluster-nodes 100 "${window[@]}"
"$JOBSENTRY" ckpt mtbf --events "$WORK/events" --cluster-nodes 100 "${window[@]}" --json >"$WORK/mtbf.json" \
  || fail "ckpt mtbf failed"
# 2 failures (the drain and the event after the window do not count) in 100 × 744 node-hours.
jq -e '.failures == 2 and .node_mtbf_s == 37200 * 3600 and .node_mtbf_lower95_s < .node_mtbf_s' "$WORK/mtbf.json" \
  >/dev/null || fail "ckpt mtbf: wrong estimate: $(cat "$WORK/mtbf.json")"
status=0; "$JOBSENTRY" ckpt explode >/dev/null 2>"$WORK/err" || status=$?
[ "$status" -eq 2 ] && grep -q "accepted: advise, mtbf" "$WORK/err" || fail "ckpt explode: $status $(cat "$WORK/err")"
echo "PASS: ckpt advise and ckpt mtbf"
