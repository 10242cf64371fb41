# Shared helpers of the end-to-end tests: real mpirun jobs of hangprog under
# `jobsentry watch`. Sourced by each test script; every check fails loudly.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/../jobsentry_under_test.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../contains.sh"
HANGPROG=${HANGPROG:?set by CTest}
NP=${NP:-4}
WORK=$(mktemp -d /tmp/jobsentry-test.XXXXXX)
# Every process this test starts carries this tag in its environment, so that
# cleanup and the leftover check see only this test's processes, never those
# of another test or benchmark running on the machine.
export JOBSENTRY_TEST_TAG=$WORK
tagged_pids() {
  local pid
  for pid in $(pgrep -x "${1:-$(basename "$HANGPROG")}"); do
    grep -qz "^JOBSENTRY_TEST_TAG=$WORK\$" "/proc/$pid/environ" 2>/dev/null && echo "$pid"
  done
  return 0
}
cleanup() {
  # A failed check must not leave a job behind for the next test.
  local bg
  bg=$(jobs -p)
  [ -n "$bg" ] && kill $bg 2>/dev/null || true
  # prterun: Open MPI 5 execs it from mpirun; mpiexec.hydra: MPICH's
  for name in jobsentry mpirun prterun mpiexec.hydra hydra_pmi_proxy "$(basename "$HANGPROG")"; do
    tagged_pids "$name" | xargs -r kill -KILL 2>/dev/null || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT

# Every process of this test carries the tag: sweep them all on exit, an
# application's own processes included (cleanup knows only a few names).
sweep() {
  local p
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" = $$ ] && continue
    grep -qz "^JOBSENTRY_TEST_TAG=$WORK\$" "$p/environ" 2>/dev/null && kill -KILL "${p#/proc/}" 2>/dev/null
  done
  return 0
}

# The pids of this test's processes that are rank RANK of an MPI job.
rank_pids() {
  local p
  for p in /proc/[0-9]*; do
    grep -qz "^JOBSENTRY_TEST_TAG=$WORK\$" "$p/environ" 2>/dev/null || continue
    grep -qzE "^(OMPI_COMM_WORLD_RANK|PMIX_RANK|PMI_RANK)=$1\$" "$p/environ" 2>/dev/null && echo "${p#/proc/}"
  done
  return 0
}

# Open MPI refuses root without these; CI runs as root.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# Keep Open MPI on shared memory: no network needed.
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
# The MPI the test runs under: Open MPI's mpirun (the default), or MPICH's
# Hydra (MPI_IMPL=mpich; HANGPROG and the other programs then are their
# builds against MPICH, tests/programs/CMakeLists.txt).
case ${MPI_IMPL:-openmpi} in
  openmpi) MPIEXEC=(mpirun --oversubscribe -np "$NP") ;;
  mpich) MPIEXEC=(mpiexec.mpich -n "$NP") ;;
  *) echo "MPI_IMPL='$MPI_IMPL': accepted are openmpi and mpich" >&2; exit 1 ;;
esac

fail() { echo "FAIL: $*" >&2; [ -f "$WORK/watch.err" ] && tail -120 "$WORK/watch.err" >&2; exit 1; }
pass() { echo "PASS: $*"; }

# run_watch EXPECTED_STATUS [watch options] -- hangprog options
run_watch() {
  local expected=$1; shift
  local opts=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  local status=0
  # --verbose: every sample in watch.err, which fail() shows. The time limit
  # (under CTest's) makes a missed hang fail here, with that evidence.
  timeout --kill-after=5 "${WATCH_LIMIT:-150}" "$JOBSENTRY" watch --verbose --report "$WORK/report.json" \
    "${opts[@]}" -- "${MPIEXEC[@]}" "$HANGPROG" "$@" >"$WORK/watch.out" 2>"$WORK/watch.err" ||
    status=$?
  [ "$status" -ne 124 ] || fail "jobsentry watch still ran after ${WATCH_LIMIT:-150} s"
  [ "$status" -eq "$expected" ] || fail "jobsentry watch exited $status, expected $expected"
}

json() { jq -r "$1" "$WORK/report.json"; }

# bench/model_replay on this run's log (--verbose writes each sample's and verification's records)
# replays the rule and its verification and must reach the verdict the watcher reached: a hang
# verdict for a hang, none for a hang-free run (docs/benchmarks.md, "Replaying the recorded runs").
expect_replay_agrees() {  # expect_replay_agrees hang|none [model_replay options]
  [ -n "${MODEL_REPLAY:-}" ] || return 0  # the packaged tests: the bench helper is not installed
  local want=$1; shift
  local got
  got=$("$MODEL_REPLAY" "$@" <"$WORK/watch.err" | sed -n 's/^verdict: //p')
  case $want in
    hang) [[ $got == "hang verdict"* ]] || fail "replay of the log: '$got', the watcher found a hang" ;;
    none) [[ $got == none* ]] || fail "replay of the log: '$got', the watcher found no hang" ;;
  esac
}

# The slow verdict replayed from the log (bench/slow_replay) ends as the watcher's did: naming RANK,
# or "none" (no slow verdict). The replay takes the log's rounds at their logged times (0.01 s).
expect_slow_replay_agrees() {  # expect_slow_replay_agrees RANK|none [slow_replay options]
  [ -n "${SLOW_REPLAY:-}" ] || return 0  # the packaged tests: the bench helper is not installed
  local want=$1; shift
  local out
  out=$("$SLOW_REPLAY" "$@" <"$WORK/watch.err")
  case $want in
    none) [[ $out == "no slow verdict"* ]] || fail "replay of the log: '$(sed -n 1p <<<"$out")', the watcher named no slow rank" ;;
    *) [[ $(sed -n 's/^at the end: //p' <<<"$out") =~ ^slow:\ rank\ $want[\ \(] ]] ||
         fail "replay of the log: '$(sed -n 1,2p <<<"$out" | paste -sd' ')', the watcher named rank $want" ;;
  esac
}

expect_json() {  # expect_json JQ_FILTER EXPECTED
  local got
  got=$(json "$1")
  [ "$got" = "$2" ] || fail "report $1 is '$got', expected '$2'"
}

# The report's cost of watching (docs/watch.md, "The report"): the supervisor's
# CPU time is positive, its share of the job's is a percentage, and the steps'
# counts agree with the samples: every round fed to the model has at least one
# stopped rank, every stop an unwind and a symbolization, and the sampler's steps
# are timed in one sample of sampler_steps_every.
expect_cost() {
  local c=.supervisor_cost s=.supervisor_cost.steps
  expect_json "$c.supervisor_cpu_s > 0 and $c.job_cpu_s > 0" true
  expect_json "$c.share_percent > 0 and $c.share_percent < 100" true
  expect_json "$s.model.count == .samples and $s.slow.count == .samples" true
  expect_json "$c.sampler_steps_every == 8" true
  expect_json "$s.stop_copy.count > 0 and $s.stop_copy.count * 8 + 8 >= .samples" true
  expect_json "$s.sample.count + 8 > $s.stop_copy.count * 8" true
  expect_json "$s.unwind.count == $s.stop_copy.count and $s.symbolize.count == $s.stop_copy.count" true
  expect_json "$s.classify.count <= $s.unwind.count and $s.classify.count * 8 + 8 >= .samples" true
  expect_json "$s.verification.count == .evidence.verifications" true
  grep -q "Watching cost: supervisor CPU" "$WORK/report.txt" || fail "text report lacks the watching cost"
}

# No process of ours may be left behind, stopped or otherwise. The ranks of a killed job take a
# moment to be reaped: looked for every 0.1 s, for up to 1 s (it was a fixed 1-s wait; the job's
# launcher is gone by now, so none can appear after a look that found none).
expect_no_leftovers() {
  local left t
  for ((t = 0; t < 10; t++)); do
    left=$(tagged_pids | tr '\n' ',')
    [ -n "$left" ] || break
    sleep 0.1
  done
  if [ -n "$left" ]; then
    ps -o pid,stat,cmd -p "${left%,}" >&2
    fail "hangprog processes left behind"
  fi
}
