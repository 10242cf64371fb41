#!/usr/bin/env bash
# False alarms over hang-free runs of the polling programs and the real
# applications, in turn, until MINUTES of runs are done; every third run
# stops all ranks together for 5 s and continues them (a suspended job,
# never a hang).
#   bash bench/real_false_alarms.sh [MINUTES] [RUN_SECONDS] [NP]
# START=K begins K targets further on (to run several at once over different codes).
. "$(dirname "$0")/common.sh"
MINUTES=${1:-120}
RUN=${2:-90}
NP=${3:-4}
OUT=${OUT:-$TOP/bench-out/real_false_alarms}
mkdir -p "$OUT"
mapfile -t apps < <(bash "$TOP/tests/apps/launch.sh" list)
targets=(hpl_like random_access halo_waitall overlap_test master_worker dgemm_phase "${apps[@]/#/app:}")
total=0 runs=0 alarms=0 cleared=0 samples=0 suspends=0
echo "| run | target | suspended | seconds | samples | verdict | alarms cleared by verification |"
echo "|---|---|---|---|---|---|---|"
while [ "$total" -lt $((MINUTES * 60)) ]; do
  target=${targets[$(((runs + ${START:-0}) % ${#targets[@]}))]}
  runs=$((runs + 1))
  rm -rf "$SCRATCH/run" "$SCRATCH/r.json"; mkdir -p "$SCRATCH/run"
  case $target in
    app:*) cmd=(bash "$TOP/tests/apps/launch.sh" "${target#app:}" "$SCRATCH/run" "$NP" "$RUN") ;;
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
  s=$(date +%s)
  "$JOBSENTRY" watch --verbose --report "$SCRATCH/r.json" -- "${cmd[@]}" >/dev/null 2>"$OUT/run_$runs.log" || true
  wait
  e=$(date +%s)
  total=$((total + e - s))
  verdict=$(jq -r .verdict "$SCRATCH/r.json" 2>/dev/null || echo none)
  v=$(jq -r .evidence.verifications "$SCRATCH/r.json" 2>/dev/null || echo 0)
  n=$(jq -r .samples "$SCRATCH/r.json" 2>/dev/null || echo 0)
  [ "$verdict" = no_hang ] || alarms=$((alarms + 1))
  cleared=$((cleared + v)); samples=$((samples + n))
  echo "| $runs | $target | $suspend | $((e - s)) | $n | $verdict | $v |"
done
echo
echo "| hang-free minutes | runs | of which suspended and resumed | samples | false alarms | candidates cleared by verification |"
echo "|---|---|---|---|---|---|"
echo "| $((total / 60)) | $runs | $suspends | $samples | $alarms | $cleared |"
