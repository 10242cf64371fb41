#!/usr/bin/env bash
# Cost per MPI call of the tracer (jobsentry trace's preload module): the
# loops of bench/trace/call_cost.c (MPI_Test on a pending receive; zero-byte
# Irecv+Isend+Waitall of a rank with itself; the thread's CPU time, robust to a
# shared machine) with 2 ranks, natively and with the
# module preloaded as `jobsentry trace` does (LD_PRELOAD, JOBSENTRY_TRACE_DIR).
# Runs are interleaved (native, traced, native, ...); medians of ROUNDS runs;
# the difference of medians is the cost per call.
#   bash bench/trace_overhead.sh [ROUNDS] [CALLS]
. "$(dirname "$0")/common.sh"
ROUNDS=${1:-7}
CALLS=${2:-1000000}
mpicc -O2 -o "$SCRATCH/call_cost" "$TOP/bench/trace/call_cost.c"
LIB=$BUILD/lib/libjobsentry-trace.so
run() {  # run native|traced: one line "test_ns T pair_ns P"
  if [ "$1" = native ]; then
    mpirun -np 2 "$SCRATCH/call_cost" "$CALLS"
  else
    mkdir -p "$SCRATCH/t"
    LD_PRELOAD=$LIB JOBSENTRY_TRACE_DIR=$SCRATCH/t mpirun -np 2 "$SCRATCH/call_cost" "$CALLS"
  fi
}
for ((i = 0; i < ROUNDS; i++)); do
  for mode in native traced; do
    echo "$mode $(run "$mode" 2>/dev/null | grep '^test_ns')"
  done
done >"$SCRATCH/runs"
python3 - "$SCRATCH/runs" "$CALLS" "$(stat -c %s "$SCRATCH/t/rank-0.jstrace")" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if len(line.split()) == 5]
med = {m: {k: statistics.median(float(r[i]) for r in rows if r[0] == m) for k, i in (("test", 2), ("pair", 4))}
       for m in ("native", "traced")}
print(f"{len(rows) // 2} interleaved rounds of {sys.argv[2]} calls per loop, 2 ranks, medians of CPU time (ns per call):")
for k, what in (("test", "MPI_Test, pending (no record)"), ("pair", "Irecv+Isend+Waitall to self, 0 B (per call)")):
    n, t = med["native"][k], med["traced"][k]
    print(f"  {what:38s} native {n:8.1f}  traced {t:8.1f}  cost {t - n:+8.1f}")
print(f"  trace of rank 0: {int(sys.argv[3]) / 1e6:.1f} MB")
PY
