#!/usr/bin/env bash
# jobsentry simulate: bad input exits 2 naming what was wrong and what is
# accepted; a good run prints the JSON keys with the closed-form makespan.
. "$(dirname "$0")/lib.sh"
expect_error() { expect_error_of simulate "$@"; }
expect_error "--procs 1: accepted values are 2" --procs 1
expect_error "--L -5: accepted values are 0..1e15" --L -5
expect_error "--G -1: accepted values" --G=-1
expect_error "unknown; accepted values are binomial-bcast" --collective tree
expect_error "unrecognised option" --frobnicate
printf 'num_ranks 2\nrank 0 {\n  a: send 8b to 7 tag 0;\n}\n' >"$WORK/bad.goal"
expect_error "bad.goal:3: expected a rank 0..1, found '7'" --goal "$WORK/bad.goal"
printf '100\t50\n200 20\n' >"$WORK/bad.tsv"
expect_error "bad.tsv:2: expected 'start_ns<TAB>duration_ns'" --procs 8 --noise-trace "$WORK/bad.tsv"
expect_error "cannot open the noise trace" --procs 8 --noise-trace "$WORK/missing.tsv"

printf 'num_ranks 2\nrank 0 { s: send 1b to 1 tag 0; }\nrank 1 { r: recv 1b from 0 tag 1; }\n' >"$WORK/dl.goal"
expect_error "deadlocked.*rank 1 waits for a message from rank 0 with tag 1" --goal "$WORK/dl.goal"
expect_error "--seed -1: accepted values are 0 or more" --seed -1
expect_error "--model logp: unknown; accepted values are jobsentry, loggopsim" --model logp
printf 'num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0 cpu 1 l2\n}\n' >"$WORK/junk.goal"
expect_error "junk.goal:3: expected 'tag', 'cpu', 'nic', ';' or the end of the line, found 'l2'" --goal "$WORK/junk.goal"

# Good GOAL run (the issue's example): rank 0's send reaches rank 3 at o + L and is received by 2o + L;
# rank 3's calc follows: 2o + L + 5 = 125 with L=100 o=10.
cat >"$WORK/ok.goal" <<'GOAL'
num_ranks 4
rank 0 { lX: send 8b to 3 tag 0; lZ: calc 10; lZ irequires lX; }
rank 3 { lY: recv 8b from 0 tag 0; lV: calc 5; lV requires lY; }
GOAL
"$JOBSENTRY" simulate --goal "$WORK/ok.goal" --L 100 --o 10 --g 5 --O 0 --G 0 --json >"$WORK/g.json" || fail "GOAL run failed"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["makespan_ns"] == 125 and r["procs"] == 4, r' "$WORK/g.json" \
  || fail "GOAL run: wrong makespan"

# schedgen's newline form with placement, under both models: rank 1 computes 1000 on CPU 1; the message
# from rank 0's CPU 1 is received on rank 1's CPU 0 by 2o + L = 120 (the project's model), or waits for
# rank 1's CPU 1 (the send's number, LogGOPSim's model) until 1000 and takes o: 1010.
cat >"$WORK/schedgen.goal" <<'GOAL'
num_ranks 2

rank 0 {
l1: send 1b to 1 tag 0 cpu 1 nic 0
}

rank 1 {
/* schedgen-style comment */
l1: calc 1000 cpu 1
l2: recv 1b from 0 tag 0 cpu 0
}
GOAL
for model in jobsentry:1000 loggopsim:1010; do
  "$JOBSENTRY" simulate --goal "$WORK/schedgen.goal" --model "${model%%:*}" --L 100 --o 10 --g 5 --O 0 --G 0 --json \
    >"$WORK/m.json" || fail "schedgen GOAL run (${model%%:*}) failed"
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["makespan_ns"] == int(sys.argv[2]) and r["model"] == sys.argv[3], r' \
    "$WORK/m.json" "${model##*:}" "${model%%:*}" || fail "schedgen GOAL run (${model%%:*}): wrong makespan"
done
# A row of the issue's table from the command line: schedgen's gather, P = 100, 256 bytes, as LogGOPSim gives it.
"$JOBSENTRY" simulate --collective schedgen:gather --procs 100 --bytes 256 --model loggopsim \
  --L 2500 --o 1500 --g 1000 --G 6 --O 0 --S 65535 --json >"$WORK/ref.json" || fail "schedgen:gather run failed"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["makespan_ns"] == 303970, r' "$WORK/ref.json" \
  || fail "schedgen:gather under --model loggopsim: not LogGOPSim's 303970 ns"

# --write-goal writes the schedule as GOAL text (schedgen's form) that --goal reads back to the same makespan.
"$JOBSENTRY" simulate --collective schedgen:binomialtreereduce --procs 1000 --bytes 1024 --write-goal "$WORK/w.goal" \
  2>/dev/null || fail "--write-goal failed"
grep -q '^l1 requires l2$' "$WORK/w.goal" || fail "--write-goal: no requires line in schedgen's form"
for src in "--collective schedgen:binomialtreereduce --procs 1000 --bytes 1024" "--goal $WORK/w.goal"; do
  # shellcheck disable=SC2086
  "$JOBSENTRY" simulate $src --model loggopsim --L 2500 --o 1500 --g 1000 --G 6 --O 0 --S 65535 --json
done >"$WORK/both.json" || fail "--write-goal round trip failed"
python3 -c 'import json,sys; t=sys.stdin.read().replace("}\n{","}\n\n{").split("\n\n"); a,b=[json.loads(x) for x in t]; assert a["makespan_ns"] == b["makespan_ns"] == 112380, (a, b)' \
  <"$WORK/both.json" || fail "--write-goal round trip: makespans differ from LogGOPSim's 112380 ns"

# Good run: dissemination, P = 1000, 1 byte, L=100 o=10: 10 rounds of 2o + L.
"$JOBSENTRY" simulate --collective dissemination --procs 1000 --bytes 1 --L 100 --o 10 --g 5 --json >"$WORK/r.json" \
  || fail "good run failed"
python3 - "$WORK/r.json" <<'PY' || fail "good run: wrong JSON"
import json, sys
r = json.load(open(sys.argv[1]))
for k in ("makespan_ns", "noise_free_makespan_ns", "slowdown", "events", "events_per_second"):
    assert k in r, k
assert r["makespan_ns"] == 1200 and r["noise_free_makespan_ns"] == 1200, r
assert r["slowdown"] == 1.0 and r["events"] == 30000 and r["events_per_second"] > 0, r
PY
# With noise: a trace with 10 % noise slows the barrier down, reproducibly for one seed.
printf '0\t10000\n# period_ns 100000\n' >"$WORK/noise.tsv"
a=$("$JOBSENTRY" simulate --procs 1024 --noise-trace "$WORK/noise.tsv" --seed 3 --json) || fail "noisy run failed"
b=$("$JOBSENTRY" simulate --procs 1024 --noise-trace "$WORK/noise.tsv" --seed 3 --json) || fail "noisy run failed"
python3 -c 'import json,sys; a=json.loads(sys.argv[1]); b=json.loads(sys.argv[2]); assert a["slowdown"] > 1 and a["makespan_ns"] == b["makespan_ns"], (a, b)' "$a" "$b" \
  || fail "noisy run: no slowdown or not reproducible"
"$JOBSENTRY" simulate --help | contains -- "--noise-trace" || fail "--help lacks options"
"$JOBSENTRY" simulate --procs 64 | contains "^slowdown" || fail "text output lacks the slowdown"
# --params FILE (as jobsentry loggp writes it): its values, the command line over them, and bad files.
echo '{"L": 100, "o": 10, "g": 5, "G": 0, "O": 0}' >"$WORK/p.json"
"$JOBSENTRY" simulate --params "$WORK/p.json" --collective dissemination --procs 1000 --bytes 1 --json |
  grep -q '"makespan_ns": 1200,' || fail "--params: not the closed form's 1200 ns"
"$JOBSENTRY" simulate --params "$WORK/p.json" --o 20 --collective dissemination --procs 1000 --bytes 1 --json |
  grep -q '"makespan_ns": 1400,' || fail "--params with --o 20: not 10 rounds of 2o + L = 1400 ns"
echo '{"L": 1, "latency": 2}' >"$WORK/bad.json"
expect_error "bad.json: unknown key \"latency\"; accepted keys are L, o, g, G, O" --params "$WORK/bad.json"
echo '{"G": -0.5}' >"$WORK/bad.json"
expect_error "bad.json: \"G\" is -0.5; accepted values are 0..1e15" --params "$WORK/bad.json"
echo '{"L": 1' >"$WORK/bad.json"
expect_error "bad.json: not JSON" --params "$WORK/bad.json"
expect_error "missing.json: cannot be read" --params "$WORK/missing.json"
# jobsentry loggp's bad input is refused before anything runs.
expect_error_of loggp "--bytes '1,x': 'x' is not a whole number; accepted is a comma-separated list" --bytes 1,x
expect_error_of loggp "--bytes '': empty" --bytes ''
expect_error_of loggp "'0' is out of range; accepted is a comma-separated list of message sizes in bytes, each 1..67108864" \
  --bytes 0
expect_error_of loggp "--reps 0: accepted values are 1..100000" --reps 0
expect_error_of loggp "--burst 1: accepted values are 2..1000" --burst 1
expect_error_of loggp "unrecognised option '--frob'" --frob
expect_error_of loggp "--out /nonexistent/l.json: cannot be written" --out /nonexistent/l.json
"$JOBSENTRY" loggp --help | contains -- "--bytes" || fail "loggp --help lacks --bytes"
echo "PASS: jobsentry simulate bad input and good runs; simulate --params; loggp bad input"
