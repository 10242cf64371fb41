#!/usr/bin/env bash
# Reading speed and memory of the GOAL reader (#18): writes schedgen's
# dissemination for P processes as GOAL text with the project's writer
# (--write-goal), in schedgen's newline form and with ';' added, then runs
# `jobsentry simulate --goal` on each under /usr/bin/time -v, RUNS times.
#   bash bench/goal_read.sh [P] [RUNS]     (default 65536 processes, 3 runs)
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JOBSENTRY=${BUILD:-$TOP/build}/bin/jobsentry
[ -x "$JOBSENTRY" ] || { echo "build first: cmake --build build --target jobsentry" >&2; exit 1; }
P=${1:-65536}
RUNS=${2:-3}
SCRATCH=$(mktemp -d /tmp/jobsentry-goalbench.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT
PARAMS=(--L 2500 --o 1500 --g 1000 --G 6 --O 0 --S 65535)

"$JOBSENTRY" simulate --collective schedgen:dissemination --procs "$P" --bytes 8 --write-goal "$SCRATCH/newline.goal" 2>/dev/null
# The project's ';' form: every statement line but the block lines gets a ';'.
sed -E '/^(num_ranks|rank|\}|$)/!s/$/;/' "$SCRATCH/newline.goal" >"$SCRATCH/semicolon.goal"

echo "| file | MB | build_seconds | MB/s (build) | wall (s) | user+sys (s) | peak RSS (MiB) | makespan (ns) |"
echo "|---|---|---|---|---|---|---|---|"
for run in $(seq "$RUNS"); do
  for form in newline semicolon; do
    f=$SCRATCH/$form.goal
    /usr/bin/time -v "$JOBSENTRY" simulate --goal "$f" "${PARAMS[@]}" --json >"$SCRATCH/r.json" 2>"$SCRATCH/time.txt"
    python3 - "$form" "$f" "$SCRATCH/r.json" "$SCRATCH/time.txt" <<'PY'
import json, os, re, sys
form, f, rj, tt = sys.argv[1:]
r = json.load(open(rj))
t = open(tt).read()
def field(name):
    return re.search(re.escape(name) + r".*?: (\S+)", t).group(1)
wall = field("Elapsed (wall clock) time")
m, s = wall.split(":")[-2:]
mb = os.path.getsize(f) / 1e6
cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
rss = int(field("Maximum resident set size (kbytes)")) / 1024
print(f"| {form} | {mb:.1f} | {r['build_seconds']:.3f} | {mb / r['build_seconds']:.0f} | {int(m) * 60 + float(s):.2f} | "
      f"{cpu:.2f} | {rss:.0f} | {r['makespan_ns']} |")
PY
  done
done
