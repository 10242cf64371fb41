#!/usr/bin/env bash
# Overhead of `jobsentry rma-check` on RMA kernels that run for seconds, not on
# start-up (issue #17, "Performance"). Four race-free kernels (bench/rma/):
#   halo    2-D Jacobi, row decomposition, MPI_Put of halo rows between two fences
#   queue   shared task queue: MPI_Fetch_and_op + flush on rank 0's counter for
#           32 tasks at a time, compute, one MPI_Accumulate of the 32 results
#           (lock_all, passive target)
#   dht     distributed hash table lookups: 512 MPI_Get per batch, flush_all
#   hybrid  MPI + OpenMP: column decomposition, columns packed by the threads,
#           MPI_Put by the master thread between fences, OpenMP parallel for
# each built twice with the same compiler (clang, -O2 -g): by Open MPI's mpicc
# (OMPI_CC=clang) for the native runs and mode 1, by jobsentry-mpicc for mode 2
# (hybrid: -fopenmp, LLVM libomp in every configuration). Three configurations:
#   native  mpirun --oversubscribe --bind-to none -np N ./kernel ITERATIONS
#   mode 1  jobsentry rma-check -- (the same command)
#   mode 2  jobsentry rma-check --precise -- (the same, the jobsentry-mpicc build)
# at 2 and 4 ranks (4 ranks on this 2-core machine are oversubscribed, hence
# --oversubscribe; --bind-to none everywhere, so that the hybrid kernel's
# threads are not bound to their rank's one core). The three configurations run
# interleaved, REPS rounds, the order rotating each round. Every kernel prints
# its timed region (MPI_Wtime around the loop after a barrier, the slowest
# rank); the script times the whole command too (for modes 1 and 2 that
# includes the analysis rma-check runs after the job). Ratios are of medians.
# Every checked run must exit 0 with zero findings in its JSON report: a
# finding in these race-free kernels is a false positive, and the script stops
# with the finding lines and keeps the traces.
# The analysis is timed apart (`jobsentry rma-report` on the last run's traces
# of each mode), with the trace size and its events; and, at the first rank
# count, on traces of 1/4, 1/2 and all of the iterations, to show whether its
# time is linear in the trace (seconds per MB, microseconds per event).
#
# Usage: nice -n 19 bash bench/rma_kernels.sh [--quick] [REPS] [RANK COUNTS]
#   REPS         rounds (default 5; with --quick 1)
#   RANK COUNTS  e.g. "2 4" (the default)
#   --quick      about 1 s per native run at 2 ranks, to check that it all works
#   KERNELS="halo dht" limits the kernels; ITERS_halo=N etc. set an iteration
#   count (queue: tasks of the whole job; the others: iterations per rank).
#   MODE2_SCALE=S (MODE2_SCALE_halo=S for one kernel) runs mode 2 with 1/S of
#   the iterations and multiplies its timed region by S (the loops are steady:
#   time per iteration is constant); the mode 2 command ratio is then not shown.
#   Default 1 (the same work). Mode 2 now runs at 1.5-3.5x native, but halo's and
#   dht's full-length mode 2 traces (about 1.7 GB and 1.4 GB) need more memory to
#   analyse than this 24 GiB machine has: MODE2_SCALE_halo=10 MODE2_SCALE_dht=10.
#   MODE1_SCALE=S and MODE1_SCALE_dht=S do the same for mode 1 (on a VM where
#   mprotect is slow, dht's mode 1 ran 100x native: 2026-11-26, a PVM guest).
#   LINEAR=no skips the analysis-against-trace-size runs (1/4, 1/2 of the
#   iterations at the first rank count), e.g. for a campaign at 4 ranks alone.
#   OMP_NUM_THREADS (default 2) and KMP_BLOCKTIME (default 0: libomp's threads
#   sleep at once instead of spinning, which on 2 oversubscribed cores made the
#   hybrid kernel 3-10x slower) are passed to every run.
# The campaign of docs/benchmarks.md (an idle machine; 2 ranks, 3 rounds: about
# 22 minutes on the 2026-11-26 PVM guest, where dht's mode 1 is 100x native):
#   MODE1_SCALE_dht=20 MODE2_SCALE_halo=10 MODE2_SCALE_dht=10 bash bench/rma_kernels.sh 3 "2"
# (add 4 ranks with "2 4": about twice as long)
# Its tables are Markdown, on stdout; progress goes to stderr.
. "$(dirname "$0")/common.sh"
QUICK=no
if [ "${1:-}" = --quick ]; then
  QUICK=yes
  shift
fi
REPS=${1:-$([ $QUICK = yes ] && echo 1 || echo 5)}
NPS=${2:-"2 4"}
KERNELS=${KERNELS:-"halo queue dht hybrid"}
# Iterations: full runs take about 6 s natively at 2 ranks on this machine (from the quick check's
# rates: halo 0.33 ms per iteration, queue 9.6 us per task, dht 0.47 ms, hybrid 0.75 ms); quick ones
# about 1 s. Check the native region column: below 5 s, raise them with ITERS_<kernel>.
declare -A FULL=([halo]=18000 [queue]=640000 [dht]=13000 [hybrid]=8000)
declare -A SHORT=([halo]=2000 [queue]=70000 [dht]=2000 [hybrid]=700)
MODE1_SCALE=${MODE1_SCALE:-1} MODE2_SCALE=${MODE2_SCALE:-1}
run_scale() {  # run_scale mode1|mode2 KERNEL
  local var=${1^^}_SCALE_$2 all=${1^^}_SCALE
  echo "${!var:-${!all}}"
}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} KMP_BLOCKTIME=${KMP_BLOCKTIME:-0}

iterations() {  # iterations KERNEL
  local var=ITERS_$1
  if [ -n "${!var:-}" ]; then echo "${!var}"
  elif [ $QUICK = yes ]; then echo "${SHORT[$1]}"
  else echo "${FULL[$1]}"; fi
}

SRC=$TOP/bench/rma
for k in $KERNELS; do
  [ -n "${FULL[$k]:-}" ] || { echo "unknown kernel '$k' (known: ${!FULL[*]})" >&2; exit 2; }
  flags=(-O2 -g)
  [ "$k" = hybrid ] && flags+=(-fopenmp)
  # -gdwarf-aranges as jobsentry-mpicc adds it: libdw needs it to name a finding's lines in clang's output
  OMPI_CC=clang mpicc "${flags[@]}" -gdwarf-aranges -o "$SCRATCH/$k.native" "$SRC/$k.c" -lm
  "$BUILD/bin/jobsentry-mpicc" "${flags[@]}" -o "$SCRATCH/$k.precise" "$SRC/$k.c" -lm
done

fail() {  # fail MESSAGE: the run's output and traces are kept for the bug report
  local keep
  keep=$(mktemp -d /tmp/jobsentry-rma-kernels-failure.XXXXXX)
  cp -r "$SCRATCH"/run.* "$SCRATCH"/tr-* "$SCRATCH"/*.json "$keep"/ 2>/dev/null || true
  {
    echo "FAIL: $*"
    grep -E '^(RACE|NOTE|jobsentry)' "$SCRATCH/run.err" 2>/dev/null | head -20 || true
    echo "(output, report and traces kept in $keep)"
  } >&2
  exit 1
}

# run CONFIG KERNEL NP ITERATIONS TAG [SCALE]: one run; appends the timed region
# (times SCALE) and the whole command's wall time (s) to $SCRATCH/TAG.CONFIG.region
# and .job; the trace of a checked run is left in $SCRATCH/tr-TAG-CONFIG.
run() {
  local cfg=$1 k=$2 np=$3 it=$4 tag=$5 scale=${6:-1} status=0 s e region
  local cmd=(mpirun --oversubscribe --bind-to none -np "$np")
  local report=$SCRATCH/$tag.$cfg.json trace=$SCRATCH/tr-$tag-$cfg
  case $cfg in
    native) cmd+=("$SCRATCH/$k.native" "$it") ;;
    mode1) cmd=("$JOBSENTRY" rma-check --trace-dir "$trace" --report "$report" -- "${cmd[@]}" "$SCRATCH/$k.native" "$it") ;;
    mode2) cmd=("$JOBSENTRY" rma-check --precise --trace-dir "$trace" --report "$report" --
                "${cmd[@]}" "$SCRATCH/$k.precise" "$it") ;;
  esac
  s=$(date +%s%N)
  "${cmd[@]}" >"$SCRATCH/run.out" 2>"$SCRATCH/run.err" || status=$?
  e=$(date +%s%N)
  if [ "$cfg" != native ]; then
    [ -f "$report" ] || fail "$k, $cfg, $np ranks: no report (exit status $status)"
    local races
    races=$(jq '.races' "$report")
    [ "$races" = 0 ] || fail "$k, $cfg, $np ranks, $it iterations: $races finding(s) in a race-free kernel (a false positive, or a bug in the kernel)"
  fi
  [ "$status" -eq 0 ] || fail "$k, $cfg, $np ranks: exit status $status"
  region=$(awk -v s="$scale" '$1 == "KERNEL" { printf "%.6f\n", $8 * s }' "$SCRATCH/run.out")
  [ -n "$region" ] || fail "$k, $cfg, $np ranks: the kernel did not print its timed region"
  echo "$region" >>"$SCRATCH/$tag.$cfg.region"
  echo "scale=3; ($e - $s) / 1000000000" | bc >>"$SCRATCH/$tag.$cfg.job"
  echo "  $k np=$np $cfg ($it iterations): region ${region} s$([ "$scale" = 1 ] || echo " (scaled by $scale)"), command $(tail -1 "$SCRATCH/$tag.$cfg.job") s" >&2
}

median() { stats "$1" | cut -d' ' -f1; }
ratio() { echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }'; }

# analyse TRACE_DIR: "MB events seconds" of `jobsentry rma-report` on it (which must find nothing)
analyse() {
  local s e
  s=$(date +%s%N)
  "$JOBSENTRY" rma-report --report "$SCRATCH/analysis.json" "$1" >"$SCRATCH/run.out" 2>"$SCRATCH/run.err" ||
    fail "rma-report on $1 exited $?"
  e=$(date +%s%N)
  [ "$(jq '.races' "$SCRATCH/analysis.json")" = 0 ] || fail "rma-report found races in $1"
  local bytes events
  bytes=$(cat "$1"/rank-*.jsrma | wc -c)
  events=$(jq '[.ranks[].events] | add' "$SCRATCH/analysis.json")
  echo "$bytes $events $(( (e - s) / 1000000 ))" | awk '{ printf "%.3f %d %.3f\n", $1 / 1e6, $2, $3 / 1000 }'
}

configs=(native mode1 mode2)
MAIN=$SCRATCH/main.md LIN=$SCRATCH/linear.md
first_np=${NPS%% *}
for k in $KERNELS; do
  it=$(iterations "$k")
  declare -A sc=([native]=1 [mode1]=$(run_scale mode1 "$k") [mode2]=$(run_scale mode2 "$k"))
  for np in $NPS; do
    tag=$k-$np
    for r in $(seq "$REPS"); do
      for j in 0 1 2; do
        cfg=${configs[$(( (r + j) % 3 ))]}
        run "$cfg" "$k" "$np" $(( it / ${sc[$cfg]} )) "$tag" "${sc[$cfg]}"
      done
    done
    nr=$(median "$SCRATCH/$tag.native.region") nj=$(median "$SCRATCH/$tag.native.job")
    cells="| $k | $np | $it | $nr | $nj"
    for m in mode1 mode2; do
      cells+=" | $(ratio "$(median "$SCRATCH/$tag.$m.region")" "$nr")"
      if [ "${sc[$m]}" != 1 ]; then
        cells+=" | (ran 1/${sc[$m]})"
      else
        cells+=" | $(ratio "$(median "$SCRATCH/$tag.$m.job")" "$nj")"
      fi
      ratio "$(median "$SCRATCH/$tag.$m.region")" "$nr" >>"$SCRATCH/all.$m"
      echo >>"$SCRATCH/all.$m"
    done
    a1=$(analyse "$SCRATCH/tr-$tag-mode1") a2=$(analyse "$SCRATCH/tr-$tag-mode2")
    read -r mb1 _ an1 <<<"$a1"
    read -r mb2 _ an2 <<<"$a2"
    echo "$cells | $mb1 / $mb2 | $an1 / $an2 |" | tee -a "$MAIN" >&2
    if [ "$np" = "$first_np" ] && [ "${LINEAR:-yes}" != no ]; then
      for m in mode1 mode2; do
        full=$(( it / ${sc[$m]} ))
        for div in 4 2 1; do
          if [ $div -eq 1 ]; then
            dir=$SCRATCH/tr-$tag-$m n=$full
          else
            n=$(( full / div ))
            run "$m" "$k" "$np" "$n" "$tag-lin$div"
            dir=$SCRATCH/tr-$tag-lin$div-$m
          fi
          a=$(analyse "$dir")
          read -r mb ev an <<<"$a"
          echo "$k $m $n $mb $ev $an" | awk '{ printf "| %s | %s | %d | %.2f | %d | %.3f | %.4f | %.2f |\n",
            $1, ($2 == "mode1" ? "1" : "2"), $3, $4, $5, $6, ($4 > 0 ? $6 / $4 : 0), ($5 > 0 ? $6 * 1e6 / $5 : 0) }' | tee -a "$LIN" >&2
        done
      done
    fi
    rm -rf "$SCRATCH"/tr-"$tag"-*  # dht's mode 1 traces are GBs
  done
done

echo "RMA checker overhead, $(date -u +%F), commit $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo "?"),"
echo "$REPS interleaved round(s)$([ $QUICK = yes ] && echo ', QUICK mode (short runs: start-up weighs, figures not meaningful)'),"
for k in $KERNELS; do
  for m in mode1 mode2; do
    s=$(run_scale $m "$k")
    [ "$s" = 1 ] || echo "$k: mode ${m#mode} ran 1/$s of the iterations, its timed region multiplied by $s,"
  done
done
echo "OMP_NUM_THREADS=$OMP_NUM_THREADS KMP_BLOCKTIME=$KMP_BLOCKTIME, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
echo
echo "| kernel | ranks | iterations | native region median (s) | native command median (s) | mode 1 region ratio | mode 1 command ratio | mode 2 region ratio | mode 2 command ratio | trace MB (mode 1 / 2) | analysis s (mode 1 / 2) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
cat "$MAIN"
echo
awk 'NF { s += $1; n++; if ($1 > mx) mx = $1 } END { printf "Mode 1: average region overhead %.0f %% (target <= 20 %%), worst %.2fx.\n", (s / n - 1) * 100, mx }' "$SCRATCH/all.mode1"
awk 'NF { s += $1; n++; if ($1 > mx) mx = $1; if (mn == "" || $1 < mn) mn = $1 } END { printf "Mode 2: region ratio %.2f-%.2fx, average %.2fx (target <= 3x).\n", mn, mx, s / n }' "$SCRATCH/all.mode2"
echo
echo "Region: the kernel's timed loop (MPI_Wtime, slowest rank). Command: the whole mpirun, or for modes 1 and 2"
echo "the whole rma-check command, start-up, trace writing and the analysis after the job included."
echo "Trace MB and analysis: the last round's traces, analysed again by jobsentry rma-report."
echo
[ "${LINEAR:-yes}" = no ] && exit 0
echo "Analysis time against trace size ($first_np ranks; 1/4, 1/2 and all of the iterations):"
echo
echo "| kernel | mode | iterations | trace MB | events | analysis (s) | s per MB | us per event |"
echo "|---|---|---|---|---|---|---|---|"
cat "$LIN"
