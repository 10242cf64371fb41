#!/usr/bin/env bash
# Speed and memory of the LogGOPS simulator (jobsentry simulate) for the
# dissemination barrier and the binomial broadcast from 1 k to 1 M processes,
# 8-byte messages, default parameters, no noise (one simulated run each).
# Events/s are per second of CPU time of the event loop (the machine may be
# shared); wall and CPU times and peak memory are of the whole command
# (/usr/bin/time -v), schedule construction included.
#   bash bench/simulate_scale.sh [MAX_PROCS] [COLLECTIVES...]
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JOBSENTRY=${BUILD:-$TOP/build}/supervisor/jobsentry
[ -x "$JOBSENTRY" ] || { echo "build first: cmake --build build --target jobsentry" >&2; exit 1; }
MAX=${1:-1048576}
shift || true
COLLECTIVES=${*:-dissemination binomial-bcast}
SCRATCH=$(mktemp -d /tmp/jobsentry-simbench.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT

echo "| collective | P | messages | events | events/s (loop CPU) | events/s (loop wall) | build (s) | wall (s) | user+sys (s) | peak RSS (MiB) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for c in $COLLECTIVES; do
  for P in 1024 4096 16384 65536 262144 1048576; do
    [ "$P" -le "$MAX" ] || continue
    /usr/bin/time -v "$JOBSENTRY" simulate --collective "$c" --procs "$P" --bytes 8 --json \
      >"$SCRATCH/r.json" 2>"$SCRATCH/time.txt"
    python3 - "$c" "$P" "$SCRATCH/r.json" "$SCRATCH/time.txt" <<'PY'
import json, re, sys
c, P, rj, tt = sys.argv[1:]
r = json.load(open(rj))
t = open(tt).read()
def f(pat):
    return re.search(pat, t).group(1)
m, s = f(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)").rsplit(":", 1)
wall = float(s) + 60 * float(m.split(":")[-1])
cpu = float(f(r"User time \(seconds\): (\S+)")) + float(f(r"System time \(seconds\): (\S+)"))
rss = int(f(r"Maximum resident set size \(kbytes\): (\d+)")) / 1024
print(f"| {c} | {int(P):,} | {r['messages']:,} | {r['events']:,} | {r['events_per_second']/1e6:.1f} M "
      f"| {r['events_per_wall_second']/1e6:.1f} M | {r['build_seconds']:.2f} | {wall:.2f} | {cpu:.2f} | {rss:.0f} |")
PY
  done
done
