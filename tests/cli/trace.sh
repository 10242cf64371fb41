#!/usr/bin/env bash
# jobsentry trace and trace-to-goal without MPI: usage errors exit 2 saying what
# is accepted; an unreadable trace directory or file is named (with the offset).
. "$(dirname "$0")/lib.sh"
expect_error_of trace "no program given; usage: jobsentry trace" --trace-dir "$WORK/t"
expect_error_of trace "--mpi 'lam': accepted are auto, openmpi and mpich" --mpi lam -- true
expect_error_of trace "unrecognised option" --frobnicate -- true
expect_error_of trace-to-goal "the option '--trace-dir' is required" 
expect_error_of trace-to-goal "no readable rank-N.jstrace in $WORK" "$WORK"
expect_error_of trace-to-goal "--allreduce 'ring': accepted are recursive-doubling, reduce-bcast, rabenseifner and by-size" --allreduce ring "$WORK"
printf 'not a trace at all, longer than 32 bytes' >"$WORK/rank-0.jstrace"
expect_error_of trace-to-goal "rank-0.jstrace: offset 0: expected the magic JSTRACE, found another file kind" "$WORK"
"$JOBSENTRY" trace --help | contains "trace-dir" || fail "trace --help lacks --trace-dir"
"$JOBSENTRY" trace-to-goal --help | contains "output" || fail "trace-to-goal --help lacks --output"
echo "PASS: trace and trace-to-goal usage errors"
