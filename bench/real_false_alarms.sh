#!/usr/bin/env bash
# False alarms over hang-free runs of the polling programs and the real
# applications, in turn, until MINUTES of runs are done; every third run
# stops all ranks together for 5 s and continues them (a suspended job,
# never a hang).
#   bash bench/real_false_alarms.sh [MINUTES] [RUN_SECONDS] [NP]
# START=K begins K targets further on (to run several at once over different codes).
# TARGETS="app:cp2k long_io ..." runs only those targets, in turn (names as in the list below).
# INTERVAL_MS=50 samples 8 times as often as the default 400 ms (the cap of its doublings scaled
# alike): each wall hour then holds 8 hours' worth of the rule's decisions, which the results call
# "equivalent hours" (400 / INTERVAL_MS x the wall time) and never plain hours. The CPU budget is off
# (--cpu-budget 0): on a full node it would stretch the faster sampling back towards the default and the
# runs would hold fewer decisions than their equivalent hours say.
# A campaign: every run appends one row to $OUT/campaign.tsv (kept across invocations; run it in the
# background for hours, stop it any time) and the totals over that whole file are printed at the end:
#   INTERVAL_MS=50 nohup bash bench/real_false_alarms.sh 600 90 4 >/dev/null 2>&1 &
. "$(dirname "$0")/common.sh"
MINUTES=${1:-120}
RUN=${2:-90}
NP=${3:-4}
OUT=${OUT:-$TOP/bench-out/real_false_alarms}
INTERVAL_MS=${INTERVAL_MS:-400}
mkdir -p "$OUT"
CAMPAIGN=$OUT/campaign.tsv
# slow: the run's slow verdict: every run here is balanced, so "slow" is a false one -- where the
# node was the job's own. foreign_cpu_percent: the node's CPU time that neither the job's ranks nor
# the supervisor used during the run, in % of the node's capacity (another user's build, a bench):
# such a process slows the ranks it shares a CPU with, a real slowdown the verdict is meant to
# name, so the balanced-run evidence counts the quiet runs only (under 5 %; the totals say).
[ -s "$CAMPAIGN" ] || echo -e "started\ttarget\tsuspended\tseconds\tinterval_ms\tequivalent_seconds\tsamples\tverdict\tcleared\tslow\tforeign_cpu_percent" >"$CAMPAIGN"
busy_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
mapfile -t apps < <(bash "$TOP/tests/apps/launch.sh" list)
# The applications' work sized from this machine's calibrated rates (their built-in ones ran NWChem
# and HPCC for 30-80 s of a 150-s run, too short for the slow verdict's baseline).
calibrated_app_rates
# long_phases: hangprog whose rank 0 computes alone for 3-5 s every ~6 s while the others wait in a
# barrier (a phase that looks like a hang of rank 0).
# long_compute: dgemm_phase whose rank computes alone in ONE function for 15-45 s of CPU time while the
# others wait (a serial setup or analysis step; below --spin-verify-ms, 60 s). long_io: hangprog whose
# rank 0 writes a checkpoint with O_DSYNC for 30-75 s while the others wait in a barrier for over a
# minute (an output step on slow storage).
targets=(hpl_like random_access halo_waitall overlap_test master_worker dgemm_phase long_phases long_compute long_io
         "${apps[@]/#/app:}")
[ -z "${TARGETS:-}" ] || read -r -a targets <<<"$TARGETS"
total=0 runs=0 alarms=0 cleared=0 samples=0 suspends=0 slows=0
echo "| run | target | suspended | seconds | samples | verdict | alarms cleared by verification | slow verdict | foreign CPU % |"
echo "|---|---|---|---|---|---|---|---|---|"
while [ "$total" -lt $((MINUTES * 60)) ]; do
  target=${targets[$(((runs + ${START:-0}) % ${#targets[@]}))]}
  runs=$((runs + 1))
  rm -rf "$SCRATCH/run" "$SCRATCH/r.json"; mkdir -p "$SCRATCH/run"
  case $target in
    app:*) cmd=(bash "$TOP/tests/apps/launch.sh" "${target#app:}" "$SCRATCH/run" "$NP" "$RUN") ;;
    long_phases) cmd=(mpirun -np "$NP" "$HANGPROG" --seconds "$RUN" --long-phases) ;;
    long_compute) cmd=(mpirun -np "$NP" "$BUILD/tests/programs/dgemm_phase" --seconds "$RUN" --phase-seconds 15:45
                       --phase-every 50) ;;
    long_io) cmd=(mpirun -np "$NP" "$HANGPROG" --seconds "$RUN" --io-phases --phase-seconds 30:75 --phase-every 10
                  --io-dir "$SCRATCH") ;;
    *) cmd=(mpirun -np "$NP" "$BUILD/tests/programs/$target" --seconds "$RUN") ;;
  esac
  suspend=no
  if [ $((runs % 3)) -eq 0 ]; then
    suspend=yes; suspends=$((suspends + 1))
    ( sleep $((RUN / 3))
      pids=$(for p in /proc/[0-9]*; do
        grep -qz "^JOBSENTRY_BENCH_TAG=$SCRATCH\$" "$p/environ" 2>/dev/null || continue
        grep -qzE "^(OMPI_COMM_WORLD_RANK|PMIX_RANK|PMI_RANK)=" "$p/environ" 2>/dev/null && echo "${p#/proc/}"
      done)
      kill -STOP $pids 2>/dev/null; sleep 5; kill -CONT $pids 2>/dev/null ) &
  fi
  s=$(date +%s) busy0=$(busy_ticks)
  log=$OUT/run_$(date +%s)_$runs.log
  "$JOBSENTRY" watch --verbose --interval-ms "$INTERVAL_MS" --max-interval-ms $((16 * INTERVAL_MS)) --cpu-budget 0 \
    --report "$SCRATCH/r.json" -- "${cmd[@]}" >/dev/null 2>"$log" || true
  wait
  e=$(date +%s) busy1=$(busy_ticks)
  total=$((total + e - s))
  foreign=$(jq -r --argjson busy "$(( busy1 - busy0 ))" --argjson hz "$(getconf CLK_TCK)" --argjson cpus "$(nproc)" \
    --argjson wall "$((e - s))" '(($busy / $hz) - .supervisor_cost.job_cpu_s - .supervisor_cost.supervisor_cpu_s)
      / ($cpus * $wall) * 100 | if . < 0 then 0 else . end | . * 10 | round / 10' "$SCRATCH/r.json" 2>/dev/null || echo -)
  verdict=$(jq -r .verdict "$SCRATCH/r.json" 2>/dev/null || echo none)
  v=$(jq -r .evidence.verifications "$SCRATCH/r.json" 2>/dev/null || echo 0)
  n=$(jq -r .samples "$SCRATCH/r.json" 2>/dev/null || echo 0)
  slow=$(jq -r '.slow.status // "none"' "$SCRATCH/r.json" 2>/dev/null || echo none)
  [ "$verdict" = no_hang ] || alarms=$((alarms + 1))
  [ "$slow" != slow ] || slows=$((slows + 1))
  cleared=$((cleared + v)); samples=$((samples + n))
  echo "| $runs | $target | $suspend | $((e - s)) | $n | $verdict | $v | $slow | $foreign |"
  echo -e "$s\t$target\t$suspend\t$((e - s))\t$INTERVAL_MS\t$(((e - s) * 400 / INTERVAL_MS))\t$n\t$verdict\t$v\t$slow\t$foreign" >>"$CAMPAIGN"
done
echo
echo "| hang-free minutes | runs | of which suspended and resumed | samples | false alarms | candidates cleared by verification | false slow verdicts |"
echo "|---|---|---|---|---|---|---|"
echo "| $((total / 60)) | $runs | $suspends | $samples | $alarms | $cleared | $slows |"
echo
echo "The whole campaign so far ($CAMPAIGN):"
echo
echo "| runs | wall hours | equivalent hours (400 ms / interval) | samples | false alarms | candidates cleared by verification | slow verdicts in quiet runs (of quiet runs judged) | in runs beside foreign CPU load or not measured (of those judged) |"
echo "|---|---|---|---|---|---|---|---|"
# quiet: foreign_cpu_percent known and under 5; rows written before that column are counted apart
awk -F'\t' 'NR > 1 { n++; wall += $4; eq += $6; samples += $7; if ($8 != "no_hang") bad++; cleared += $9
                      if ($10 == "slow" || $10 == "no_slow") {
                        if ($11 != "" && $11 != "-" && $11 + 0 < 5) { quiet++; if ($10 == "slow") quiet_slow++ }
                        else { busy++; if ($10 == "slow") busy_slow++ } } }
  END { printf "| %d | %.2f | %.2f | %d | %d | %d | %d (of %d) | %d (of %d) |\n", n, wall / 3600, eq / 3600, samples,
               bad, cleared, quiet_slow, quiet, busy_slow, busy }' "$CAMPAIGN"
