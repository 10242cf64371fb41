# One RMA checker case: runs the program's racy and fixed variants under
# `jobsentry rma-check` (real mpirun) and checks the findings.
#   rma_case.sh NAME[.CLASS] NP [--precise]
# CLASS: the program's second argument (target_side.c: which synchronisation).
# MPI_IMPL=mpich runs the MPICH build of the program (NAME_mpich, by
# mpicc.mpich) under mpiexec.mpich, with rma-check left to find the MPI itself.
# The racy run must exit 4 and name both accesses as file:line (the lines are
# looked up in the source by the markers below, so edits do not break the
# test); the fixed run must exit 0 with no finding.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../jobsentry_under_test.sh"
PROGDIR=${RMA_PROGRAMS:?set by CTest}
SRCDIR=$(cd "$(dirname "$0")" && pwd)
name=${1%%.*} class= np=$2
[[ $1 == *.* ]] && class=${1#*.}
shift 2
prog=$PROGDIR/rma_$name
[ "${1:-}" = --precise ] && prog=${prog}_precise
# OMP_BUILD=gcc: the program built by GCC -fopenmp (libgomp), rma_NAME_gcc
[ "${OMP_BUILD:-}" = gcc ] && prog=${prog}_gcc
launch=(mpirun --oversubscribe -np "$np")
if [ "${MPI_IMPL:-openmpi}" = mpich ]; then
  prog=${prog}_mpich launch=(mpiexec.mpich -n "$np")
fi
WORK=$(mktemp -d /tmp/jobsentry-rma-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1

fail() { echo "FAIL: $name${class:+.$class}: $*" >&2; cat "$WORK"/*.err >&2 || true; exit 1; }
# line_of N-th line of the source matching a pattern
line_of() { grep -n -- "$1" "$SRCDIR/$name.c" | sed -n "${2:-1}p" | cut -d: -f1; }

run() {  # run VARIANT EXPECTED_STATUS (a number, or alternatives: 0|4) [rma-check options]
  local variant=$1 expected=$2 status=0
  shift 2
  timeout 120 "$JOBSENTRY" rma-check "$@" --trace-dir "$WORK/traces-$variant" --report "$WORK/$variant.json" -- \
    "${launch[@]}" "$prog" "$variant" ${class:+"$class"} >"$WORK/$variant.out" 2>"$WORK/$variant.err" ||
    status=$?
  [[ $status =~ ^($expected)$ ]] || fail "$variant run exited $status, expected $expected"
  if [ "${MPI_IMPL:-openmpi}" = mpich ]; then
    grep -q "^jobsentry rma-check: checking an MPICH program ($prog is linked with MPICH" "$WORK/$variant.err" ||
      fail "rma-check did not find that $prog is an MPICH program"
  fi
}

# With RMA_SCORE_FILE set (bench/rma_suite_score.sh), a passing case appends one line per variant:
# NAME MODE MPI VARIANT RACES DECLARED, where DECLARED says whether the report stated it did not
# check something (a NOTE: not observed, not checked, cannot be ordered).
score() {
  [ -n "${RMA_SCORE_FILE:-}" ] || return 0
  [ "$name" = omp_unsupported ] && return 0  # bad input (both variants race-free), not a case of the suite
  local variant mode=1 declared case=$name${class:+.$class}
  [ "${OMP_BUILD:-}" = gcc ] && case=${name}_gcc  # the GCC build is a case of its own
  [ "${1:-}" = --precise ] && mode=2
  for variant in racy fixed; do
    [ -f "$WORK/$variant.json" ] || continue
    declared=0
    grep -Eq "^NOTE .*(not observed|not checked|cannot be ordered|has no OMPT)" "$WORK/$variant.err" && declared=1
    echo "$case $mode ${MPI_IMPL:-openmpi} $variant $(jq .races "$WORK/$variant.json") $declared" >>"$RMA_SCORE_FILE"
  done
}

expect_line() {  # expect_line REGEX: a finding line of the racy run
  grep -Eq -- "$1" "$WORK/racy.err" || fail "no finding matching '$1'"
  jq -e --arg re "$1" '[.findings[].line | test($re)] | any' "$WORK/racy.json" >/dev/null ||
    fail "the JSON report has no finding matching '$1'"
}

f="$name.c"
case $name in
put_put)
  l=$(line_of MPI_Put)
  run racy 4 "$@"
  expect_line "^RACE remote put\(rank 0, $f:$l\) vs put\(rank 2, $f:$l\) on win 1 bytes \[20,24\) of rank 1$" ;;
get_load)
  run racy 4 "$@"
  expect_line "^RACE local get\(rank 1, $f:$(line_of MPI_Get)\) vs (load|store)\(rank 1, $f:$(line_of 'racy && out')\)"
  expect_line "^RACE local get\(rank 1, $f:$(line_of MPI_Get 2)\) vs (load|store)\(rank 1, $f:$(line_of 'heap buffer')\)" ;;
get_hang)
  run racy 4 "$@"
  grep -q "rank 1 hung" "$WORK/racy.out" || fail "the racy variant did not show the hang"
  expect_line "^RACE local get\(rank 1, $f:$(line_of "MPI_Get(&flag")\) vs load\(rank 1, $f:$(line_of 'while (flag == 0')\)" ;;
put_get_fence)
  run racy 4 "$@"
  expect_line "^RACE remote put\(rank 0, $f:$(line_of MPI_Put)\) vs get\(rank 2, $f:$(line_of 'MPI_Get(')\) on win 1 bytes \[40,44\) of rank 1$" ;;
acc_ops)
  run racy 4 "$@"
  expect_line "^RACE remote accumulate\(rank 0, $f:$(line_of 'rank == 0) MPI_Acc')\) vs accumulate\(rank 2, $f:$(line_of 'rank == 2) MPI_Acc')\) on win 1 bytes \[8,12\) of rank 1$" ;;
flush_reuse)
  run racy 4 "$@"
  expect_line "^RACE local put\(rank 0, $f:$(line_of MPI_Put 1)\) vs store\(rank 0, $f:$(line_of 'src\[0\] = 2')\)" ;;
pscw)
  l=$(line_of MPI_Put)
  run racy 4 "$@"
  expect_line "^RACE remote put\(rank 0, $f:$l\) vs put\(rank 2, $f:$l\) on win 1 bytes \[0,4\) of rank 1$" ;;
dtype)
  l=$(line_of 'MPI_Put(')
  run racy 4 "$@"
  expect_line "^RACE remote put\(rank 0, $f:$l\) vs put\(rank 2, $f:$l\) on win 1 bytes \[0,4\) of rank 1$" ;;
rget_wait)
  run racy 4 "$@"
  expect_line "^RACE local get\(rank 1, $f:$(line_of 'MPI_Rget(')\) vs load\(rank 1, $f:$(line_of 'racy) seen = got')\)"
  expect_line "^RACE local accumulate\(rank 1, $f:$(line_of 'MPI_Rget_accumulate(')\) vs load\(rank 1, $f:$(line_of 'racy) before = old')\)" ;;
acc_types)  # MPI_SUM vs MPI_PROD, MPI_INT vs MPI_FLOAT, misaligned ints, CAS vs MPI_SUM: each a race
  run racy 4 "$@"
  acc() { echo "accumulate\(rank $1, $f:$(line_of "$2")\)"; }
  expect_line "^RACE remote $(acc 0 '/\* op A') vs $(acc 2 '/\* op B') on win 1 bytes \[0,4\) of rank 1$"
  expect_line "^RACE remote $(acc 0 '/\* type A') vs $(acc 2 '/\* type B') on win 1 bytes \[4,8\) of rank 1$"
  expect_line "^RACE remote $(acc 0 '/\* align A') vs $(acc 2 '/\* align B') on win 1 bytes \[18,24\) of rank 1$"
  expect_line "^RACE remote $(acc 0 '/\* cas A') vs $(acc 2 '/\* cas B') on win 1 bytes \[32,36\) of rank 1$"
  jq -e '[.findings[].why] | sort ==
      ["different basic types", "different operations", "different operations", "elements not aligned"]' \
    "$WORK/racy.json" >/dev/null || fail "the racy run's findings are not exactly the four, with their reasons" ;;
acc_order)  # one origin's MPI_SUM then MPI_REPLACE of doubles to the same bytes: ordered unless accumulate_ordering=none
  run racy 4 "$@"
  expect_line "^RACE remote accumulate\(rank 0, $f:$(line_of '/\* the sum')\) vs accumulate\(rank 0, $f:$(line_of '/\* the replace')\) on win 1 bytes \[8,40\) of rank 1$"
  jq -e '[.findings[].why] == ["different operations"]' "$WORK/racy.json" >/dev/null ||
    fail "the racy run's finding is not the one, for different operations" ;;
acc_float_int)  # MPI_FLOAT vs MPI_INT on one location, from one origin and from two: both atomicity violations
  run racy 4 "$@"
  acc() { echo "accumulate\(rank $1, $f:$(line_of "$2")\)"; }
  expect_line "^RACE remote $(acc 0 '/\* the float sum') vs $(acc 0 '/\* the int sum') on win 1 bytes \[0,16\) of rank 1$"
  expect_line "^RACE remote $(acc 0 "/\* rank 0's float") vs $(acc 2 "/\* rank 2's int") on win 1 bytes \[32,36\) of rank 1$"
  rule='atomicity violation: accumulates with different basic datatypes \(MPI_FLOAT and MPI_INT\) on the same location are not atomic \(MPI-3.1 §11.7.1\)'
  [ "$(grep -Ec "^  $rule" "$WORK/racy.err")" -eq 2 ] || fail "the findings are not both explained as atomicity violations"
  jq -e --arg re "^$rule" '.races == 2 and all(.findings[]; .why == "different basic types" and (.explanation | test($re)))' \
    "$WORK/racy.json" >/dev/null || fail "the racy run's findings are not exactly the two, for different basic types" ;;
noop_read)  # the MPI_NO_OP fetch is reported as the read it is
  run racy 4 "$@"
  expect_line "^RACE remote get\(rank 0, $f:$(line_of '/\* noop fetch')\) vs put\(rank 2, $f:$(line_of '/\* the put')\) on win 1 bytes \[0,4\) of rank 1$"
  jq -e '.races == 1' "$WORK/racy.json" >/dev/null || fail "the racy run has other findings than the fetch vs the put" ;;
comm_dup)  # the fixed twin is race-free only when the dup's messages are matched apart from MPI_COMM_WORLD's
  l=$(line_of '/\* the put')
  run racy 4 "$@"
  expect_line "^RACE remote put\(rank 0, $f:$l\) vs put\(rank 2, $f:$l\) on win 1 bytes \[20,24\) of rank 1$" ;;
icoll)  # the same put line from rank 0 and rank 2; found only when it is issued before the Ibarrier completes
  l=$(line_of '/\* the put')
  run racy 4 "$@"
  expect_line "^RACE remote put\(rank 0, $f:$l\) vs put\(rank 2, $f:$l\) on win 1 bytes \[20,24\) of rank 1$" ;;
omp_store)  # rank 0's Put vs the store of rank 1's OpenMP thread that writes mem[3]
  run racy 4 "$@"
  if [ "${1:-}" != --precise ]; then  # GCC's libgomp run with LLVM libomp in its place, mode 1
    grep -q "^NOTE the OpenMP runtime is LLVM libomp (.*) in place of GCC's libgomp" "$WORK/racy.err" ||
      fail "the report did not name LLVM libomp in place of GCC's libgomp"
  fi
  if [ "${1:-}" = --precise ]; then
    grep -q "^NOTE the OpenMP runtime (.*) offers OMPT: its synchronisation was recorded" \
      "$WORK/racy.err" || fail "the report did not name LLVM libomp's OMPT"
  fi
  expect_line "^RACE remote put\(rank 0, $f:$(line_of MPI_Put)\) vs store\(rank 1 thread [0-9]+, $f:$(line_of "the threads' store")\) on win 1 bytes \[12,16\) of rank 1$" ;;
omp_unsupported)  # GCC-built, needs omp_alloc@OMP_5.0.1, which libomp lacks: libgomp kept, and said
  run racy 0 "$@"
  missing="needs from libgomp (version OMP_5.0.1, )?omp_alloc@OMP_5.0.1, omp_free@OMP_5.0.1"
  grep -Eq "^jobsentry rma-check: .*rma_omp_unsupported_gcc $missing, which LLVM libomp \(.*\) does not provide" \
    "$WORK/racy.err" || fail "rma-check did not name the symbols libomp lacks"
  jq -e --arg re "^the program runs GNU libgomp, which has no OMPT.*LLVM libomp was not put in its place because the program $missing.*the order of its threads was not checked" \
    '.notes | map(test($re)) | any' "$WORK/racy.json" >/dev/null ||
    fail "the JSON report does not say libgomp ran and which symbols libomp lacks" ;;
omp_master|omp_critical|omp_for|omp_sections|omp_single|omp_task|omp_depend|omp_lock)  # two threads of rank 0, ordered only by OpenMP in the twin
  case $name in
  omp_master) one=$(line_of "the master's put") two=$(line_of "thread 1's put") ;;
  omp_critical) one=$(line_of 'the unprotected put') two=$one ;;
  omp_lock) one=$(line_of '/\* the put') two=$one ;;
  omp_for) one=$(line_of "the loop's put") two=$(line_of 'the put after the loop') ;;
  omp_sections) one=$(line_of "the section's put") two=$(line_of 'the put after the sections') ;;
  omp_single) one=$(line_of "the single's put (nowait)") two=$(line_of "the other thread's put") ;;
  omp_task) one=$(line_of "the task's put") two=$(line_of "the master's put") ;;
  omp_depend) one=$(line_of "the first task's put") two=$(line_of "the second task's put") ;;
  esac
  run racy 4 "$@"
  p1="put\(rank 0 thread [0-9]+, $f:$one\)" p2="put\(rank 0 thread [0-9]+, $f:$two\)"
  expect_line "^RACE remote ($p1 vs $p2|$p2 vs $p1) on win 1 bytes \[12,16\) of rank 1$"
  # the two sides name two different threads
  jq -e '[.findings[] | select(.a.rank == 0 and .b.rank == 0 and .a.thread != .b.thread and .a.thread > 0)] | length == 1' \
    "$WORK/racy.json" >/dev/null || fail "the finding does not name two threads of rank 0"
  grep -q "^NOTE rank 0: MPI calls from 2 threads; their order among threads was taken from OpenMP synchronisation (OMPT)" \
    "$WORK/racy.err" || fail "the report did not say that rank 0's threads were ordered by OpenMP"
  if [ "${OMP_BUILD:-}" = gcc ]; then  # GCC-built: LLVM libomp ran in libgomp's place, named in text and JSON
    grep -q "^jobsentry rma-check: .*rma_${name}_gcc.* runs GCC's libgomp, which has no OMPT: its ranks run LLVM libomp" \
      "$WORK/racy.err" || fail "rma-check did not say it runs LLVM libomp in libgomp's place"
    jq -e '.notes | map(test("^the OpenMP runtime is LLVM libomp \\(.*\\) in place of GCC.s libgomp")) | any' \
      "$WORK/racy.json" >/dev/null || fail "the JSON report does not name LLVM libomp in place of GCC's libgomp"
    [ -z "$(find "$WORK/traces-racy" -mindepth 1 -type d)" ] || fail "the private libgomp directory was left behind"
    if [ "$name" = omp_master ]; then  # libomp absent: said plainly, the run goes on with libgomp, unordered
      JOBSENTRY_LIBOMP=/nonexistent/libomp.so.5 run racy '0|4' "$@"
      grep -q "^jobsentry rma-check: .* runs GCC's libgomp (no OMPT), and LLVM libomp, which could take its place, was not found (/nonexistent/libomp.so.5" \
        "$WORK/racy.err" || fail "rma-check did not say that libomp was not found"
      grep -q "^NOTE the program runs GNU libgomp, which has no OMPT.*LLVM libomp, which could take its place, was not found" \
        "$WORK/racy.err" || fail "the report did not say that libgomp ran because libomp was not found"
      grep -q "^NOTE rank 0: MPI calls from 2 threads; their order among threads was not checked" "$WORK/racy.err" ||
        fail "the report did not say that rank 0's threads were not ordered"
    fi
  fi ;;
omp_target_load)  # GCC-built: a thread's load of the window while the master is inside MPI_Barrier
  run racy 4 "$@"
  expect_line "^RACE remote put\(rank 0, $f:$(line_of '/\* the put')\) vs load\(rank 1 thread [0-9]+, $f:$(line_of "/\\* thread 1's load")\) on win 1 bytes \[12,16\) of rank 1$"
  # the load is thread 1's, not the master's (which made rank 1's MPI calls)
  jq -e '[.findings[] | select(.b.rank == 1 and .b.thread > 0)] | length == 1' "$WORK/racy.json" >/dev/null ||
    fail "the finding does not name rank 1's loading thread" ;;
omp_origin_store)  # GCC-built: a thread's store to the master's pending Put origin, two threads named
  run racy 4 "$@"
  put="put\(rank 0 thread [0-9]+, $f:$(line_of "the master's put")\)" store="store\(rank 0 thread [0-9]+, $f:$(line_of "/\\* thread 1's store")\)"
  expect_line "^RACE local ($put vs $store|$store vs $put) on win 1 origin buffer"
  jq -e '[.findings[] | select(.a.rank == 0 and .b.rank == 0 and .a.thread != .b.thread and .a.thread > 0 and .b.thread > 0)] | length == 1' \
    "$WORK/racy.json" >/dev/null || fail "the finding does not name two threads of rank 0" ;;
omp_get_into_window)  # GCC-built: a thread's load of a Get's origin in the rank's own kept window, after MPI's copy
  run racy 4 "$@"
  get="get\(rank 0 thread [0-9]+, $f:$(line_of '/\* the get')\)" load="load\(rank 0 thread [0-9]+, $f:$(line_of "/\\* thread 1's load")\)"
  expect_line "^RACE local ($get vs $load|$load vs $get) on win 1 origin buffer"
  jq -e '[.findings[] | select(.a.thread != .b.thread)] | length == 1' "$WORK/racy.json" >/dev/null ||
    fail "the finding does not name two threads of rank 0" ;;
omp_sections_one_thread)  # GCC-built: a section's load, unordered with the other section's MPI_Barrier
  run racy 4 "$@"
  expect_line "^RACE remote put\(rank 0, $f:$(line_of '/\* the put')\) vs load\(rank 1( thread [0-9]+)?, $f:$(line_of "the section's load")\) on win 1 bytes \[12,16\) of rank 1$" ;;
thread_load)  # a worker thread's load of the main thread's pending Get buffer: seen (pages, not watchpoints);
  # the main thread's store to its window (mem[0] = 42) is the other thread of window accesses
  run racy 4 "$@"
  get="get\(rank 1, $f:$(line_of 'MPI_Get(')\)" load="load\(rank 1, $f:$(line_of "the worker's load")\)"
  expect_line "^RACE local ($get vs $load|$load vs $get) on win 1 origin buffer"
  grep -q "^NOTE rank 1: MPI calls from 1 thread, loads/stores of window memory or RMA buffers from 2 threads; their order" \
    "$WORK/racy.err" || fail "the report did not say that rank 1's two threads were not ordered" ;;
threads)  # two threads' Puts of one rank cannot be ordered without OpenMP/OMPT: said, whether found or not
  run racy '0|4' "$@"
  note="^NOTE rank 0: MPI calls from 3 threads; their order among threads was not checked: no OpenMP/OMPT information"
  grep -Eq -- "$note" "$WORK/racy.err" || fail "the report did not say that rank 0's threads were not ordered"
  jq -e '.notes | map(test("^rank 0: MPI calls from 3 threads")) | any' "$WORK/racy.json" >/dev/null ||
    fail "no thread note in the JSON report"
  jq -e '.ranks[] | select(.rank == 0) | .threads == 3' "$WORK/racy.json" >/dev/null ||
    fail "the JSON report does not count rank 0's 3 threads" ;;
sampled)  # a hot call site: its warm-up is watched whatever sampling does; --check-all watches every operation
  put="put\(rank 0, $f:$(line_of '/\* the put')\)"
  early="store\(rank 0, $f:$(line_of '/\* the early store')\)" late="store\(rank 0, $f:$(line_of '/\* the late store')\)"
  sampling='^NOTE mode 1 watched the origin buffers of [0-9]+ of 20000 RMA operations .*run with --check-all'
  run racy 4 "$@"
  expect_line "^RACE local $put vs $early"
  grep -Eq "$sampling" "$WORK/racy.err" || fail "the report did not say how many operations were sampled out"
  jq -e '.notes | map(test("^mode 1 watched the origin buffers of")) | any' "$WORK/racy.json" >/dev/null ||
    fail "no sampling note in the JSON report"
  run racy 4 --check-all "$@"
  expect_line "^RACE local $put vs $early"
  expect_line "^RACE local $put vs $late"
  grep -Eq "^NOTE mode 1 watched" "$WORK/racy.err" && fail "--check-all still sampled: $(grep '^NOTE mode 1 watched' "$WORK/racy.err")" ;;
target_store)
  # Both modes name the store's four bytes: mode 1 caught it by its page fault and the analysis
  # decoded the width of the instruction (the fault alone gives its first byte).
  run racy 4 "$@"
  expect_line "^RACE remote put\(rank 0, $f:$(line_of MPI_Put)\) vs store\(rank 1, $f:$(line_of 'racy) mem\[3\]')\) on win 1 bytes \[12,16\) of rank 1$"
  if [ "${1:-}" != --precise ]; then
    grep -q "^NOTE mode 1 .*at the target, the first loads and stores of an allocated window between two synchronisations" "$WORK/racy.err" ||
      fail "mode 1 did not say which target-side accesses it observes"
    jq -e '.notes | length > 0' "$WORK/racy.json" >/dev/null || fail "no note in the JSON report"
  fi ;;
target_side)  # every synchronisation class: rank 0's operation vs rank 1's own access of element 3
  op=$(case $class in lock) echo get ;; flush) echo accumulate ;; *) echo put ;; esac)
  access=$([ "$class" = flush ] && echo load || echo store)
  run racy 4 "$@"
  expect_line "^RACE remote $op\(rank 0, $f:$(line_of "the $class $op")\) vs $access\(rank 1, $f:$(line_of "the $class $access")\) on win 1 bytes \[12,16\) of rank 1$" ;;
wide_access)  # the unaligned store at its true bytes [2,10), and the program's memcpy (mode 1: each
  # caught by its fault at its first byte, the width decoded from the instruction)
  run racy 4 "$@"
  expect_line "^RACE remote put\\(rank 0, $f:$(line_of 'the put near the store')\\) vs store\\(rank 1, $f:$(line_of '/\* the unaligned store')\\) on win 1 bytes \\[8,10\\) of rank 1$"
  expect_line "^RACE remote put\\(rank 0, $f:$(line_of 'the put near the copy')\\) vs store\\(rank 1, $f:$(line_of '/\* the copy')\\) on win 1 bytes \\[20,24\\) of rank 1$" ;;
loop_walk)  # precise, -O2: the walk is one range check before the loop, with the walk's line
  # (not `objdump | grep -q`: under pipefail, grep's early exit fails objdump with SIGPIPE)
  summaries=$(objdump -d --no-show-raw-insn "$prog" | grep -c 'call.*<__jobsentry_rma_range>' || true)
  [ "$summaries" -gt 0 ] ||
    fail "the program has no loop summary (jobsentry-mpicc did not load the pass plugin)"
  run racy 4 "$@"
  expect_line "^RACE remote put\\(rank 0, $f:$(line_of '/\* the put')\\) vs store\\(rank 1, $f:$(line_of '/\* the walk')\\) on win 1 bytes \\[40,44\\) of rank 1( \\([0-9]+ times\\))?$" ;;
*) fail "unknown case" ;;
esac
run fixed 0 "$@"
grep -q "^RACE" "$WORK/fixed.err" && fail "the race-free twin was reported: $(grep ^RACE "$WORK/fixed.err")"
jq -e '.races == 0' "$WORK/fixed.json" >/dev/null || fail "the fixed run's JSON report has races"
case $name in
threads)  # only the main thread calls MPI: nothing to say about threads
  if grep -q "^NOTE rank .* threads" "$WORK/fixed.err"; then fail "a thread note in the fixed run"; fi ;;
omp_store)  # the OpenMP threads' stores are recorded with their threads in both variants
  if [ "${1:-}" = --precise ]; then  # libomp: ordered by OMPT (the twin is race-free only through the fork)
    for variant in racy fixed; do
      grep -q "^NOTE rank 1: MPI calls from 1 thread, loads/stores of window memory or RMA buffers from 2 threads; their order among threads was taken from OpenMP synchronisation" \
        "$WORK/$variant.err" || fail "the $variant run did not say that rank 1's 2 threads were ordered by OpenMP"
    done
  fi ;;
esac
score "$@"
echo "PASS: $name $* (${MPI_IMPL:-openmpi})"
