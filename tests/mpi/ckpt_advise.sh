#!/usr/bin/env bash
# `jobsentry ckpt advise`: bad values exit 2 naming the value and what is
# accepted; a good run prints the paper's numbers (docs/checkpoint.md).
set -euo pipefail
JOBSENTRY=${JOBSENTRY:?set by CTest}
WORK=$(mktemp -d /tmp/jobsentry-ckpt.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_error() {  # expect_error PATTERN ARGS...
  local pattern=$1; shift
  local status=0
  "$JOBSENTRY" ckpt advise "$@" >"$WORK/out" 2>"$WORK/err" || status=$?
  [ "$status" -eq 2 ] || fail "ckpt advise $* exited $status, expected 2"
  grep -q -- "$pattern" "$WORK/err" || { cat "$WORK/err" >&2; fail "ckpt advise $*: message lacks '$pattern'"; }
  [ ! -s "$WORK/out" ] || fail "ckpt advise $*: printed advice despite the error"
}
good=(--mtbf 24h --nodes 128 --ckpt-cost 90s)
expect_error "--mtbf 0s: accepted values are positive durations" --mtbf 0s --ckpt-cost 90s
expect_error "--mtbf -3h" --mtbf -3h --ckpt-cost 90s
expect_error "--mtbf 24: accepted values are positive durations with a unit" --mtbf 24 --ckpt-cost 90s
expect_error "--mtbf lots" --mtbf lots --ckpt-cost 90s
expect_error "--mtbf is required" --ckpt-cost 90s
expect_error "--ckpt-cost 0s" --mtbf 24h --ckpt-cost 0s
expect_error "--ckpt-cost 90:" --mtbf 24h --ckpt-cost 90
expect_error "--nodes 0: accepted values are whole numbers" --mtbf 24h --ckpt-cost 90s --nodes 0
expect_error "--nodes many" --mtbf 24h --ckpt-cost 90s --nodes many
expect_error "--recovery -1s" "${good[@]}" --recovery -1s
expect_error "--downtime 1x" "${good[@]}" --downtime 1x
expect_error "--iter-mean 0s" "${good[@]}" --iter-mean 0s
expect_error "--iter-mean 50:" "${good[@]}" --iter-mean 50
expect_error "--iter-sd five" "${good[@]}" --iter-mean 50s --iter-sd five
expect_error "--dist weibull: accepted values are gamma, uniform, normal, empirical" "${good[@]}" --iter-mean 50s --dist weibull
expect_error "a Gamma law needs a positive standard deviation" "${good[@]}" --iter-mean 50s --dist gamma
expect_error "exclude each other" "${good[@]}" --iter-mean 50s --iter-file /dev/null
expect_error "frobnicate" "${good[@]}" --frobnicate
printf '50.1\n49s\n# comment\n-3\n' >"$WORK/times"
expect_error "line 4 '-3'" "${good[@]}" --iter-file "$WORK/times"
expect_error "cannot read" "${good[@]}" --iter-file "$WORK/missing"

# The slides' platform: λ = −ln(0.99)/55 s is a job MTBF of 5472.5 s.
"$JOBSENTRY" ckpt advise --mtbf 5472.5s --ckpt-cost 5s --recovery 5s --downtime 1s --iter-mean 50s --iter-sd 10s \
  --dist gamma --json >"$WORK/good.json" 2>"$WORK/err" || fail "good run failed: $(cat "$WORK/err")"
jq -e '.k_static == 5 and (.x_static - 4.6114 | fabs) < 2e-3 and (.w_threshold_s - 206.05 | fabs) < 0.5
       and (.young_daly_period_s - 233.93 | fabs) < 0.05 and .slowdown_dynamic > 1
       and .slowdown_dynamic <= .slowdown_dynamic_first_order and .warnings == []' "$WORK/good.json" >/dev/null \
  || fail "good run: wrong numbers: $(cat "$WORK/good.json")"
"$JOBSENTRY" ckpt advise --mtbf 5472.5s --ckpt-cost 5s --recovery 5s --downtime 1s --iter-mean 50s --iter-sd 10s \
  --dist gamma | grep -q "k_static 5 (x_static 4.61" || fail "text output lacks k_static 5"
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
"$JOBSENTRY" ckpt advise --help | grep -q -- "--ckpt-cost" || fail "--help lacks options"
echo "PASS: ckpt advise"
