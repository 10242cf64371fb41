#!/usr/bin/env bash
# rma-check on a public suite nobody on the team wrote: RMARaceBench's MPI RMA cases
# (RWTH-HPC/RMARaceBench, directory MPIRMA: 125 small programs, each labelled in its header with
# RACE_KIND, NPROCS and, when racy, RACE_PAIR ["MPI_Put@56","LOAD@63"]: the two source lines).
# Each program is built as a user would, `mpicc -fopenmp -g` (GCC, libgomp) for mode 1 and
# `jobsentry-mpicc -fopenmp -g` for mode 2, and run under `jobsentry rma-check` with the suite's
# NPROCS on Open MPI. Scored by the issue's rule, stricter than the suite's own script: a racy case
# is a true positive only when one finding names both labelled lines; a race-free case is a true
# negative when there is no finding; a run that fails or times out is listed and counts as a miss.
#   bash bench/rma_public_suite.sh SUITE_DIR [MODES="1 2"] [FILTER=regex on the case's path]
# SUITE_DIR: a checkout of the suite (or its MPIRMA directory). Writes $OUT/results.tsv
# (OUT=bench-out/rma_public_suite) and prints the tables on stdout.
. "$(dirname "$0")/common.sh"
SUITE=${1:?usage: rma_public_suite.sh SUITE_DIR [MODES] [FILTER]}
MODES=${2:-1 2}
FILTER=${3:-.}
[ -d "$SUITE/MPIRMA" ] && SUITE=$SUITE/MPIRMA
[ -n "$(find "$SUITE" -name '*.c' -print -quit 2>/dev/null)" ] ||
  { echo "no .c cases under $SUITE: give a checkout of RMARaceBench (its MPIRMA directory)" >&2; exit 2; }
MPICC_WRAPPER=$BUILD/bin/jobsentry-mpicc
OUT=${OUT:-$TOP/bench-out/rma_public_suite}
mkdir -p "$OUT"
RESULTS=$OUT/results.tsv
echo -e "case\tdiscipline\tmode\tracy\tlines\toutcome\traces\tnote" >"$RESULTS"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

# label FILE: "KIND NPROCS LINE1 LINE2" from the case's RACE LABELS header (lines - when race-free).
label() {
  python3 - "$1" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
meta = json.loads(text.split("// RACE LABELS BEGIN\n/*")[1].split("*/\n// RACE LABELS END")[0])
pair = [p.split("@")[1] for p in meta.get("RACE_PAIR", [])] if meta["RACE_KIND"] != "none" else []
print(meta["RACE_KIND"], meta.get("NPROCS", 2), *(pair or ["-", "-"]))
PY
}

while IFS= read -r src <&3; do  # fd 3: mpirun reads stdin
  case_name=$(basename "$src" .c)
  discipline=$(basename "$(dirname "$src")")
  read -r kind nprocs l1 l2 < <(label "$src")
  racy=yes; [ "$kind" = none ] && racy=no
  for mode in $MODES; do
    dir=$SCRATCH/$case_name.$mode; mkdir -p "$dir"
    cp "$src" "$dir/"  # findings name the file as built
    compiler=mpicc opts=()
    [ "$mode" = 2 ] && compiler=$MPICC_WRAPPER opts=(--precise)
    outcome= races=- note=
    if ! (cd "$dir" && "$compiler" -fopenmp -g -O0 "$case_name.c" -o prog) >"$dir/build.log" 2>&1; then
      outcome=build_failed note=$(grep -m1 -i error "$dir/build.log" | cut -c1-120)
    else
      status=0
      (cd "$dir" && timeout 120 "$JOBSENTRY" rma-check "${opts[@]}" --trace-dir "$dir/traces" --report "$dir/report.json" \
        -- mpirun --oversubscribe -np "$nprocs" ./prog) </dev/null >"$dir/run.out" 2>"$dir/run.err" || status=$?
      if [ ! -s "$dir/report.json" ]; then
        outcome=run_failed note="exit $status: $(grep -v '^ ' "$dir/run.err" | tail -1 | cut -c1-120)"
      else
        races=$(jq .races "$dir/report.json")
        if [ "$racy" = yes ]; then
          # one finding naming both lines (a finding line reads "... (rank R, FILE:L1) vs ... (rank S, FILE:L2) ...")
          if jq -e --arg a ":$l1)" --arg b ":$l2)" \
              '[.findings[].line | select(contains($a) and contains($b))] | length > 0' "$dir/report.json" >/dev/null; then
            outcome=TP
          else
            outcome=FN
            [ "$races" -gt 0 ] && note="found, not both lines: $(jq -r '.findings[0].line' "$dir/report.json" | cut -c1-140)"
          fi
        else
          outcome=TN; [ "$races" -gt 0 ] && outcome=FP note=$(jq -r '.findings[0].line' "$dir/report.json" | cut -c1-140)
        fi
        if [ "$outcome" = FN ] && [ -z "$note" ]; then
          note=$(grep -m1 -E "^NOTE .*(not observed|not checked|cannot be ordered|has no OMPT)" "$dir/run.err" | cut -c1-140 || true)
        fi
      fi
    fi
    echo -e "$case_name\t$discipline\t$mode\t$racy\t$l1,$l2\t$outcome\t$races\t$note" >>"$RESULTS"
    echo "$case_name mode $mode: $outcome${note:+ ($note)}" >&2
  done
done 3< <(find "$SUITE" -name '*.c' | sort | grep -E -- "$FILTER")

python3 - "$RESULTS" <<'PY'
import collections, csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
print("| mode | discipline | cases | TP | FN | TN | FP | failed | accuracy | precision | recall |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for mode in sorted({r["mode"] for r in rows}):
    groups = collections.OrderedDict()
    for r in rows:
        if r["mode"] == mode:
            groups.setdefault(r["discipline"], []).append(r)
    groups["total"] = [r for r in rows if r["mode"] == mode]
    for name, rs in groups.items():
        c = collections.Counter(r["outcome"] for r in rs)
        tp, fn, tn, fp = c["TP"], c["FN"], c["TN"], c["FP"]
        failed = len(rs) - tp - fn - tn - fp
        scored = tp + fn + tn + fp
        acc = (tp + tn) / (scored + failed) if scored + failed else 0  # a failed run is a miss, not left out
        prec = tp / (tp + fp) if tp + fp else 1
        rec = tp / (tp + fn) if tp + fn else 1
        print(f"| {mode} | {name} | {len(rs)} | {tp} | {fn} | {tn} | {fp} | {failed} | {acc:.3f} | {prec:.3f} | {rec:.3f} |")
for r in rows:
    if r["outcome"] not in ("TP", "TN"):
        print(f"\nmode {r['mode']} {r['case']}: {r['outcome']} {r['note']}", end="")
print()
PY
