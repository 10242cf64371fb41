#!/usr/bin/env bash
# The slow verdict against real faults on real applications (issue: fail-slow). Each injection
# runs tests/mpi/slow_rank.sh on one of LAMMPS, CP2K and NWChem (fixed work: tests/apps/launch.sh),
# 4 ranks, and once the job's slow baseline (100 rounds, SLOW_OPTS of that script) is complete
# and a random 0-20 s more has passed, slows a random rank by a random fault until the job ends:
#   stopcont  stopped 30-60 ms of every 100 ms (SIGSTOP/SIGCONT)
#   quota     held to 20-50 % of a CPU (cgroup v1 cpu.cfs_quota_us, v2 cpu.max)
#   hog       pinned to one CPU beside a busy loop pinned there (a noisy neighbour)
# Recorded per injection: was a slow verdict given, did it name the slowed rank (or its node),
# the delay from the fault to the verdict, the verdict's estimated job slowdown, and the measured
# one, three times: by wall time, (end - fault) / (the unfaulted run's time - (fault - start)), from one
# balanced run of each application first (which also counts as a balanced run: a slow verdict there
# is a false one); and by the application's own steps (tests/apps/launch.sh's app.steps), the time
# the faulted run took from the fault to its last step over the time the balanced run took for the
# same steps: the same work compared with itself, free of the start-up's spread and of a pace that
# drifts along the run (NWChem's later steps are slower); and that by-steps ratio normalized by the
# same ratio before the fault (by_steps, below), free of a run that went slower or faster than the
# balanced one from its start. The summary judges the estimate on the normalized measure where known,
# else on the steps. Also recorded, by the run's own steps alone (own_pace, below): steps a second in
# the 30 s before the fault over those from 5 s after it to the end, free of the balanced run (which
# ran at another moment of a shared machine) but not of a pace that drifts along the run.
# Rows are appended to $OUT/results.tsv as they come, so a campaign stopped early keeps them.
#   [LIMIT=600] [KEEP_REFS=1] [APPS="lammps cp2k nwchem"] [FAULTS="stopcont quota hog"] \
#     bash bench/slow_detection.sh [INJECTIONS=40] [RUN_SECONDS=90] [SEED]
# APPS_MPI=mpich: the applications' MPICH builds under Hydra (tests/apps/launch.sh: NWChem only, and
# Debian 13's; e.g. in scripts/debian13-root.sh's root with APPS=nwchem and an OUT of its own), with
# NP=2: MPICH's ranks poll without yielding, and NWChem at 4 ranks on 2 CPUs made 1 step in 100 s
# (36 steps in 15 s at 2 ranks). NP (default 4): ranks per job.
# LIMIT: a faulted run is stopped after that many seconds (a busy neighbour can slow a job 20-50x;
# the steps' measure compares the steps it made with the balanced run's same steps).
. "$(dirname "$0")/common.sh"
N=${1:-40}
RUN=${2:-90}
RANDOM=${3:-$$}
OUT=${OUT:-$TOP/bench-out/slow_detection}
mkdir -p "$OUT"
export PROGRAMS=$BUILD/tests/programs JOBSENTRY HANGPROG NP=${NP:-4}
calibrated_app_rates
read -ra apps <<<"${APPS:-lammps cp2k nwchem}"
read -ra faults <<<"${FAULTS:-stopcont quota hog}"
for f in "${faults[@]}"; do
  case $f in stopcont | quota | hog) ;; *) echo "FAULTS: '$f' is not one of stopcont quota hog" >&2; exit 2 ;; esac
done
for a in "${apps[@]}"; do
  bash "$TOP/tests/apps/launch.sh" list | grep -x "$a" >/dev/null || { echo "APPS: '$a' is not an application of tests/apps/launch.sh" >&2; exit 2; }
done
RESULTS=$OUT/results.tsv
[ -s "$RESULTS" ] || echo -e "app\tfault\tparam\trank\tdelay_after_baseline\tslow\tnamed\tright\tverdict_delay_s\testimated\tmeasured\tmeasured_steps\tmeasured_steps_normalized\tmeasured_own_pace" >"$RESULTS"

# by_steps RUN_STEPS REF_STEPS FAULT [normalized]: the faulted run's time from FAULT to its last step
# over the balanced run's time for the same steps (step k's time interpolated at the fault); "-" when
# either run printed too few steps. normalized: that ratio over the same ratio before the fault (its
# first step to the fault, at least 10 s of the balanced run): a run that went slower or faster than
# the balanced one before any fault (the balanced run kept from an earlier campaign, CP2K's pace
# that varies between runs) is judged against its own pace.
by_steps() {
  awk -v f="$3" -v mode="${4:-}" 'FNR == 1 { file++ } file == 1 { run[++n] = $1; next } { ref[++m] = $1 }
    END {
      last = n < m ? n : m
      for (i = 1; i < last && run[i + 1] <= f; i++) {}
      if (last < 3 || run[1] > f || i >= last) { print "-"; exit }
      k = i + (run[i + 1] > run[i] ? (f - run[i]) / (run[i + 1] - run[i]) : 0)  # two lines in one read
      j = int(k); at = ref[j] + (k - j) * (ref[j + 1] - ref[j])
      if (ref[last] - at < 5) { print "-"; exit }
      after = (run[last] - f) / (ref[last] - at)
      if (mode != "normalized") { printf "%.2f", after; exit }
      if (at - ref[1] < 10) { print "-"; exit }
      printf "%.2f", after / ((f - run[1]) / (at - ref[1]))
    }' "$1" "$2"
}

# own_pace RUN_STEPS FAULT END: the run's steps a second in [FAULT - 30, FAULT] over those in
# [FAULT + 5, END]; "-" with fewer than 3 steps in either.
own_pace() {
  awk -v f="$2" -v e="$3" '$1 >= f - 30 && $1 <= f { if (b++ == 0) b0 = $1; b1 = $1 }
    $1 >= f + 5 && $1 <= e { if (a++ == 0) a0 = $1; a1 = $1 }
    END { if (b >= 3 && a >= 3 && b1 > b0 && a1 > a0) printf "%.2f", ((b - 1) / (b1 - b0)) / ((a - 1) / (a1 - a0)); else print "-" }' "$1"
}

field() { awk -v k="$2" '{ print $k }' "$1/times"; }  # started faulted detected ended

# One balanced run of each application: its time, and a slow verdict there is a false one.
declare -A ref
# KEEP_REFS=1: a campaign continued in the same $OUT keeps the balanced runs it has.
for app in "${apps[@]}"; do
  dir=$OUT/ref_$app
  if [ -n "${KEEP_REFS:-}" ] && [ -s "$dir/times" ] && [ -s "$dir/app.steps" ]; then
    ref[$app]=$(awk '{ printf "%.1f", $4 - $1 }' "$dir/times"); echo "balanced $app kept: ${ref[$app]} s" >&2; continue
  fi
  rm -rf "$dir"
  KEEP_DIR=$dir bash "$TOP/tests/mpi/slow_rank.sh" "app:$app" none 0 "$RUN" >"$dir.log" 2>&1 || true
  [ -s "$dir/times" ] || { echo "balanced run of $app failed: $(grep -E '^FAIL' "$dir.log")" >&2; exit 1; }
  ref[$app]=$(awk '{ printf "%.1f", $4 - $1 }' "$dir/times")
  false_slow=$(jq -r '.slow.status' "$dir/report.json")
  echo -e "$app\tnone\t-\t-\t-\t$false_slow\t-\t-\t-\t-\t${ref[$app]}\t$(wc -l <"$dir/app.steps" 2>/dev/null || echo 0) steps" >>"$RESULTS"
  echo "balanced $app: ${ref[$app]} s, slow verdict: $false_slow" >&2
done

for i in $(seq "$N"); do
  app=${apps[$((RANDOM % ${#apps[@]}))]}
  rank=$((RANDOM % NP))
  delay=$((RANDOM % 21))
  fault=${faults[$((RANDOM % ${#faults[@]}))]}
  case $fault in
    stopcont) param=$((30 + 10 * (RANDOM % 4))); export STOP_MS=$param ;;
    quota) param=$((20 + 10 * (RANDOM % 4))); export QUOTA_PCT=$param ;;
    hog) param=- ;;
  esac
  dir=$OUT/run_$(date +%s)_$i; rm -rf "$dir"
  FAULT_DELAY=$delay KEEP_FAULT=1 EXPECT_SLOW=0 KEEP_DIR=$dir \
    bash "$TOP/tests/mpi/slow_rank.sh" "app:$app" "$fault" "$rank" "$RUN" "${LIMIT:-600}" >"$dir.log" 2>&1 || true
  if [ ! -s "$dir/times" ] || [ ! -s "$dir/report.json" ]; then
    echo -e "$app\t$fault\t$param\t$rank\t$delay\terror\t-\t-\t-\t-\t-" >>"$RESULTS"
    echo "run $i ($app $fault $param rank $rank): no result: $(grep -E '^FAIL' "$dir.log" | head -1)" >&2
    continue
  fi
  read -r started faulted detected ended <"$dir/times"
  slow=$(jq -r '.slow.status' "$dir/report.json")
  named=$(jq -r '[.slow.ranks[]?] | join(",")' "$dir/report.json")
  right=no; [[ ",$named," == *",$rank,"* ]] && right=yes
  vdelay=-; [ "$detected" != - ] && vdelay=$(awk -v a="$faulted" -v b="$detected" 'BEGIN { printf "%.1f", b - a }')
  est=$(jq -r 'if .slow.status == "slow" then (.slow.job_factor * 100 | round / 100) else "-" end' "$dir/report.json")
  measured=$(awk -v s="$started" -v f="$faulted" -v e="$ended" -v r="${ref[$app]}" \
    'BEGIN { left = r - (f - s); if (left > 5) printf "%.2f", (e - f) / left; else print "-" }')
  steps=- normalized=- own=-
  if [ -s "$dir/app.steps" ] && [ -s "$OUT/ref_$app/app.steps" ]; then
    steps=$(by_steps "$dir/app.steps" "$OUT/ref_$app/app.steps" "$faulted")
    normalized=$(by_steps "$dir/app.steps" "$OUT/ref_$app/app.steps" "$faulted" normalized)
  fi
  [ -s "$dir/app.steps" ] && own=$(own_pace "$dir/app.steps" "$faulted" "$ended")
  echo -e "$app\t$fault\t$param\t$rank\t$delay\t$slow\t${named:--}\t$right\t$vdelay\t$est\t$measured\t$steps\t$normalized\t$own" >>"$RESULTS"
  echo "run $i: $app $fault $param rank $rank: $slow [$named] after $vdelay s, est $est, measured $measured (by steps $steps, normalized $normalized, own pace $own)" >&2
done

# The table of every injection so far in $RESULTS (this run's and earlier ones').
# In the copy below, column 14 (the own pace, which the summary does not judge on) becomes the measured
# slowdown judged on: by the steps normalized by the run's pace before the fault where known, else by
# the steps, else by wall time (rows of earlier campaigns have 12 or 13 columns).
awk -F'\t' -v OFS='\t' 'NR > 1 && $2 != "none" {
    $14 = ($13 != "" && $13 != "-") ? $13 : ($12 != "" && $12 != "-") ? $12 : $11; print }' "$RESULTS" >"$SCRATCH/inj"
total=$(wc -l <"$SCRATCH/inj")
big=$(awk -F'\t' '$14 != "-" && $14 >= 1.2' "$SCRATCH/inj" | wc -l)
found=$(awk -F'\t' '$14 != "-" && $14 >= 1.2 && $6 == "slow" && $8 == "yes"' "$SCRATCH/inj" | wc -l)
awk -F'\t' '$14 != "-" && $14 >= 1.2 && $6 == "slow" && $8 == "yes" { print $9 }' "$SCRATCH/inj" >"$SCRATCH/delays"
awk -F'\t' '$10 != "-" && $14 != "-" && $14 >= 1.2 && $8 == "yes" { r = $10 / $14; print (r > 1 ? r - 1 : 1 - r) }' \
  "$SCRATCH/inj" >"$SCRATCH/errors"
within=$(awk '$1 <= 0.3' "$SCRATCH/errors" | wc -l)
false_slow=$(awk -F'\t' 'NR > 1 && $2 == "none" && $6 == "slow"' "$RESULTS" | wc -l)
balanced=$(awk -F'\t' 'NR > 1 && $2 == "none"' "$RESULTS" | wc -l)
read -r dmed dp90 _ <<<"$(stats "$SCRATCH/delays")"
echo "| injections | of which slowed the job ≥ 1.2× (measured, by steps where known) | named right | verdict delay, median / p90 (s) | estimate within ±30 % of measured | balanced runs | false slow verdicts |"
echo "|---|---|---|---|---|---|---|"
echo "| $total | $big | $found | $dmed / $dp90 | $within of $(wc -l <"$SCRATCH/errors") | $balanced | $false_slow |"
echo
echo "Every row: $RESULTS"
