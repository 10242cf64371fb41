#!/usr/bin/env bash
# The slow verdict's job factor from the job's output rate (docs/decision-rule.md §5) under each
# MPI's launcher: the bytes the ranks' launcher relays are read on the watcher's node, and that
# launcher is Open MPI's mpirun itself (prterun from Open MPI 5 on), or MPICH's Hydra proxy
# (hydra_pmi_proxy, below mpiexec.mpich). halo_waitall, 4 ranks, prints a line of fixed width
# every PROGRESS iterations from rank 0 (--progress: the iteration and the wall clock), as real
# codes print a line per step; once the watcher's slow baseline is complete, rank RANK is slowed
# by FAULT until the job ends (tests/mpi/slow_rank.sh with KEEP_FAULT=1).
# Measured: the job's pace from those lines, iterations a second in the 30 s before the fault
# over those from 5 s after it to the job's end. Estimated: the report's job factor, and where
# it came from (output_rate is the one this checks; the others are decision-rule.md §5's).
#   [RUNS=3] [MPIS="openmpi mpich"] [FAULT=quota] [QUOTA_PCT=30] [STOP_MS=50] [RANK=2] \
#     [PROGRESS=10] bash bench/slow_output_rate.sh [RUN_SECONDS=100]
. "$(dirname "$0")/common.sh"
RUN=${1:-100}
RUNS=${RUNS:-3}
FAULT=${FAULT:-quota}
RANK=${RANK:-2}
PROGRESS=${PROGRESS:-10}
export QUOTA_PCT=${QUOTA_PCT:-30} STOP_MS=${STOP_MS:-50} JOBSENTRY HANGPROG NP=4
read -ra mpis <<<"${MPIS:-openmpi mpich}"
case $FAULT in quota | stopcont | hog) ;; *) echo "FAULT: '$FAULT' is not one of quota stopcont hog" >&2; exit 2 ;; esac
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "RUNS: '$RUNS' is not a positive count" >&2; exit 2; }
[[ $RUN =~ ^[0-9]+$ ]] && [ "$RUN" -ge 60 ] || { echo "RUN_SECONDS: '$RUN' is not a whole number of seconds >= 60 (the baseline alone takes about 45)" >&2; exit 2; }
for m in "${mpis[@]}"; do
  case $m in
    openmpi) ;;
    mpich) [ -x "$BUILD/tests/programs/halo_waitall_mpich" ] ||
      { echo "MPIS: mpich needs $BUILD/tests/programs/halo_waitall_mpich (Debian's mpich installed when the tree was configured)" >&2; exit 2; } ;;
    *) echo "MPIS: '$m' is not one of openmpi mpich" >&2; exit 2 ;;
  esac
done
OUT=${OUT:-$TOP/bench-out/slow_output_rate}
# The ranks' parent under Open MPI: mpirun itself up to 4; from 5 on, mpirun execs prterun.
openmpi_launcher=mpirun
[[ $(mpirun --version 2>/dev/null) =~ \(Open\ MPI\)\ ([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -ge 5 ] && openmpi_launcher=prterun
mkdir -p "$OUT"

echo "| MPI | launcher | run | fault | pace before (it/s) | pace after (it/s) | measured | estimated | from | estimate / measured | named |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for r in $(seq "$RUNS"); do
  for m in "${mpis[@]}"; do  # interleaved: each MPI's runs share the machine's moments alike
    program=halo_waitall launcher=$openmpi_launcher
    [ "$m" = mpich ] && program=halo_waitall_mpich launcher=hydra_pmi_proxy
    dir=$OUT/${m}_$(date +%s)_$r
    MPI_IMPL=$m PROGRAMS=$BUILD/tests/programs PROGRAM_ARGS="--progress $PROGRESS" KEEP_FAULT=1 EXPECT_SLOW=0 \
      KEEP_DIR=$dir bash "$TOP/tests/mpi/slow_rank.sh" "$program" "$FAULT" "$RANK" "$RUN" 120 >"$dir.log" 2>&1 || true
    if [ ! -s "$dir/times" ] || [ ! -s "$dir/report.json" ] || [ ! -s "$dir/watch.out" ]; then
      echo "| $m | $launcher | $r | $FAULT | - | - | - | - | - | - | no result: $(grep -m1 '^FAIL' "$dir.log") |"
      continue
    fi
    read -r _ faulted _ ended <"$dir/times"
    before=$(pace "$dir/watch.out" "$(awk -v f="$faulted" 'BEGIN { printf "%.3f", f - 30 }')" "$faulted")
    after=$(pace "$dir/watch.out" "$(awk -v f="$faulted" 'BEGIN { printf "%.3f", f + 5 }')" "$ended")
    measured=$(awk -v a="$before" -v b="$after" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }')
    read -r est from named <<<"$(jq -r '[(if .slow.status == "slow" then (.slow.job_factor * 100 | round / 100) else "-" end),
      (.slow.job_factor_from // "-"), ([.slow.ranks[]?] | join(",") | if . == "" then "-" else . end)] | @tsv' "$dir/report.json")"
    ratio=$(awk -v e="$est" -v m="$measured" 'BEGIN { if (e + 0 > 0 && m + 0 > 0) printf "%.2f", e / m; else print "-" }')
    fault_text=$FAULT
    case $FAULT in quota) fault_text="quota $QUOTA_PCT %" ;; stopcont) fault_text="stopcont $STOP_MS ms/100 ms" ;; esac
    echo "| $m | $launcher | $r | rank $RANK $fault_text | $before | $after | ${measured}× | ${est}× | $from | $ratio | $named |"
  done
done
echo
echo "Every run's log, report and output: $OUT"
