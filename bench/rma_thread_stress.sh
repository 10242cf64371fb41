#!/usr/bin/env bash
# rma-check's mode 1 under two threads of one rank that Put and flush at the same time
# (bench/rma/put_stress.c, GCC -fopenmp: the module swaps libgomp for LLVM libomp), under Open MPI
# and MPICH, RUNS times each, interleaved. Counted per MPI: runs that crashed (an exit status other
# than 0 or 4, a signal, or no report: the module's page tables or its fault handler failing under
# threads), runs
# whose report has findings (false ones: the program is race-free), the median run time and the
# median count of rank 0's traced events (what was checked: 2 x ITERATIONS Puts and flushes). Races
# this guards against: docs/rmacheck.md, "Threads" (a Put of one thread tore another's pending
# entry, a stale fault was taken for a foreign one; a flush of one thread completed another's Put).
#   bash bench/rma_thread_stress.sh [RUNS=20] [ITERATIONS=3000]
. "$(dirname "$0")/common.sh"
RUNS=${1:-20}
ITER=${2:-3000}
[[ $RUNS =~ ^[1-9][0-9]*$ && $ITER =~ ^[1-9][0-9]*$ ]] ||
  { echo "usage: $0 [RUNS] [ITERATIONS] (positive integers, not '$RUNS' '$ITER')" >&2; exit 2; }
command -v mpicc.mpich >/dev/null || { echo "mpicc.mpich missing: bash scripts/install-deps.sh" >&2; exit 1; }
SRC=$TOP/bench/rma/put_stress.c
mpicc -O2 -g -fopenmp -o "$SCRATCH/put_stress_ompi" "$SRC"
mpicc.mpich -O2 -g -fopenmp -o "$SCRATCH/put_stress_mpich" "$SRC"
declare -A crashed=() findings=()
for mpi in ompi mpich; do crashed[$mpi]=0 findings[$mpi]=0; : >"$SCRATCH/times.$mpi"; : >"$SCRATCH/events.$mpi"; done
for ((i = 1; i <= RUNS; i++)); do
  for mpi in ompi mpich; do
    case $mpi in
      ompi) launch=(mpirun --oversubscribe -np 2) ;;
      mpich) launch=(mpiexec.mpich -n 2) ;;
    esac
    run=$SCRATCH/run.$mpi.$i
    mkdir "$run"
    start=$(date +%s.%N)
    status=0
    OMP_NUM_THREADS=2 timeout 300 "$JOBSENTRY" rma-check --check-all --trace-dir "$run/traces" --report "$run/report.json" -- \
      "${launch[@]}" "$SCRATCH/put_stress_$mpi" "$ITER" >"$run/out" 2>"$run/err" || status=$?
    echo "$(date +%s.%N) - $start" | bc >>"$SCRATCH/times.$mpi"
    races=$(jq -r '.races // "none"' "$run/report.json" 2>/dev/null || echo none)
    jq -r '.ranks[0].events // empty' "$run/report.json" >>"$SCRATCH/events.$mpi" 2>/dev/null || true
    if [ "$status" -ne 0 ] && [ "$status" -ne 4 ] || [ "$races" = none ]; then
      crashed[$mpi]=$((crashed[$mpi] + 1))
      echo "$mpi run $i: exit status $status, report races '$races'; its stderr's end:" >&2
      tail -5 "$run/err" >&2
    elif [ "$races" != 0 ]; then
      findings[$mpi]=$((findings[$mpi] + 1))
      echo "$mpi run $i: $races false findings:" >&2
      grep -m3 RACE "$run/err" >&2 || true
    fi
    rm -rf "$run"
  done
done
echo "| MPI | runs | Put+flush per thread | crashed | runs with findings | median run (s) | median events traced on rank 0 |"
echo "|---|---|---|---|---|---|---|"
for mpi in ompi mpich; do
  read -r median _ <<<"$(stats "$SCRATCH/times.$mpi")"
  read -r events _ <<<"$(stats "$SCRATCH/events.$mpi")"
  name=$([ $mpi = ompi ] && echo "Open MPI $(mpirun --version | sed -n '1s/.* //p')" || echo "MPICH $(mpichversion 2>/dev/null | sed -n 's/^MPICH Version:[[:space:]]*//p')")
  echo "| $name | $RUNS | $ITER | ${crashed[$mpi]} | ${findings[$mpi]} | $median | ${events%.*} |"
done
