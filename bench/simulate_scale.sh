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
JOBSENTRY=${BUILD:-$TOP/build}/bin/jobsentry
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

# The 1 M-process dissemination barrier again, REPEAT times (default 5): its
# wall time depends on the neighbours and on how fast the kernel finds huge
# pages (system time), so the spread is worth seeing.
REPEAT=${REPEAT:-5}
[ "$MAX" -ge 1048576 ] || exit 0
echo
echo "| run | build (s) | loop CPU (s) | events/s (loop CPU) | wall (s) | user (s) | sys (s) | peak RSS (MiB) |"
echo "|---|---|---|---|---|---|---|---|"
for i in $(seq "$REPEAT"); do
  /usr/bin/time -f "%e %U %S %M" "$JOBSENTRY" simulate --collective dissemination --procs 1048576 --bytes 8 --json \
    >"$SCRATCH/r.json" 2>"$SCRATCH/time.txt"
  python3 - "$i" "$SCRATCH/r.json" "$SCRATCH/time.txt" <<'PY'
import json, sys
i, rj, tt = sys.argv[1:]
r = json.load(open(rj))
wall, user, sys_, rss = open(tt).read().split()[-4:]
loop = r["events"] / r["events_per_second"]
print(f"| {i} | {r['build_seconds']:.2f} | {loop:.2f} | {r['events_per_second']/1e6:.1f} M | {wall} | {user} | {sys_} | {int(rss)/1024:.0f} |")
PY
done
