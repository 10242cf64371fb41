#!/usr/bin/env bash
# The supervisor's CPU time against the job's: one `jobsentry watch` run per
# code at the default settings, and the report's supervisor_cost
# (docs/watch.md, "The cost of watching") as one markdown table row per code.
#   bash bench/supervisor_cpu.sh [SECONDS] [NP] [CODE...]
# CODE: a real application of tests/apps/launch.sh (lammps, cp2k, nwchem;
# scripts/install-apps.sh) or a test program of build/tests/programs
# (overlap_test, master_worker, halo_waitall, ...). Default: lammps overlap_test.
. "$(dirname "$0")/common.sh"
SECS=${1:-40}
NP=${2:-4}
shift $(($# < 2 ? $# : 2))
CODES=("$@")
[ ${#CODES[@]} -gt 0 ] || CODES=(lammps overlap_test)
LAUNCH=$TOP/tests/apps/launch.sh
calibrated_app_rates

watch_one() {  # watch_one CODE: the report of one watched run in $SCRATCH/CODE.json
  local code=$1 cmd
  if bash "$LAUNCH" list | grep -x "$code" >/dev/null; then  # not -q: an early exit would fail the pipe (pipefail)
    cmd=(bash "$LAUNCH" "$code" "$SCRATCH/$code" "$NP" "$SECS")
  elif [ -x "$BUILD/tests/programs/$code" ]; then
    cmd=(mpirun --oversubscribe -np "$NP" "$BUILD/tests/programs/$code" --seconds "$SECS")
  else
    echo "$code: neither an application of tests/apps/launch.sh nor a built test program" >&2
    return 1
  fi
  "$JOBSENTRY" watch --report "$SCRATCH/$code.json" -- "${cmd[@]}" >/dev/null 2>"$SCRATCH/$code.err" ||
    { echo "$code: jobsentry watch failed (exit $?)" >&2; tail -5 "$SCRATCH/$code.err" >&2; return 1; }
}

echo "| code, $NP ranks, ${SECS} s | samples | model's interval at the end (ms) | supervisor CPU (s) | job CPU (s) | share (%) | from the 20th round (%) | budget: stretch max, s slowed | stop/copy (µs) | unwind (µs) | symbolize (µs) | classify (µs) | model (µs) | slow verdict (µs) | slow verdict's share (%) | whole sample (µs) | verifications | outside the steps (s) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for code in "${CODES[@]}"; do
  watch_one "$code" || continue
  jq -r --arg code "$code" '.supervisor_cost as $c | $c.steps as $s |
    def us(step): "\(step.mean_us | . * 10 | round / 10) (\(step.count))";
    "| \($code) | \(.samples) | \(.interval_ms) | \($c.supervisor_cpu_s * 1000 | round / 1000) | \($c.job_cpu_s | round) | \($c.share_percent * 1000 | round / 1000) | \(($c.steady_share_percent // 0) * 1000 | round / 1000) | \($c.budget.stretch_max * 100 | round / 100), \($c.budget.seconds_slowed | round) | \(us($s.stop_copy)) | \(us($s.unwind)) | \(us($s.symbolize)) | \(us($s.classify)) | \(us($s.model)) | \(us($s.slow)) | \(if $c.job_cpu_s > 0 then $s.slow.total_ms / 10 / $c.job_cpu_s * 10000 | round / 10000 else 0 end) | \(us($s.sample)) | \($s.verification.count) | \($c.supervisor_cpu_s - $s.sample.total_ms / 1000 - $s.model.total_ms / 1000 - $s.slow.total_ms / 1000 | . * 1000 | round / 1000) |"' \
    "$SCRATCH/$code.json"
done
echo
echo "Mean CPU time per step (count in parentheses): CLOCK_THREAD_CPUTIME_ID of the sampling thread;"
echo "supervisor CPU: CLOCK_PROCESS_CPUTIME_ID of the whole supervisor; job CPU: the ranks' utime + stime;"
echo "slow verdict's share: its CPU (the slow step's total) as a share of the job's: what it adds to watching."
echo "outside the steps: supervisor CPU minus the samples, the model and the slow verdict (start-up, discovery, verdicts, report)."
echo "from the 20th round: the share without the start-up; budget: --cpu-budget's largest stretch of the interval"
echo "and the seconds sampling was slowed (docs/watch.md, \"The cost of watching\")."
echo "model's interval at the end: ParaStack's I, doubled while its runs test finds the samples not random"
echo "(each doubling halves the rounds, and the supervisor's CPU, for the rest of the run)."
