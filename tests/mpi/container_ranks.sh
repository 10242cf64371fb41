#!/usr/bin/env bash
# Ranks in a container, watched from the host: a 4-rank Open MPI 5 job of Debian 13's userland (the
# root of scripts/debian13-root.sh, entered with bubblewrap: a mount namespace of its own, as
# Apptainer's and Podman's are) under this host's `jobsentry watch` (Debian 12: another libc, and Open
# MPI 4.1's libmpi.so.40 at the same path as the container's Open MPI 5). Rank 2 falls asleep: the
# hang must be claimed, rank 2 named, and every rank's frames named from the files the ranks map
# (opened through /proc/PID/root: symbolizer.cpp), not from this host's files of the same paths.
# Run by scripts/test-debian13.sh once its stage has built the root's tree (hangprog).
#   bash tests/mpi/container_ranks.sh JOBSENTRY ROOT
set -euo pipefail
JOBSENTRY=${1:?usage: container_ranks.sh JOBSENTRY ROOT}
ROOT=${2:?usage: container_ranks.sh JOBSENTRY ROOT}
PROG=/root/build/tests/programs/hangprog  # a path of the container: this host has no such file
WORK=$(mktemp -d /tmp/jobsentry-container.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() {
  echo "FAIL: ranks in a container: $*" >&2
  [ -f "$WORK/watch.err" ] && grep -v " record: " "$WORK/watch.err" | tail -40 >&2
  exit 1
}
command -v bwrap >/dev/null || fail "bubblewrap is not installed (scripts/install-deps.sh installs it)"
[ -x "$ROOT$PROG" ] || fail "$ROOT$PROG is missing: the Debian 13 stage builds it"
[ ! -e "$PROG" ] || fail "this host has $PROG too: the test could not tell whose file named the frames"

status=0
timeout 150 "$JOBSENTRY" watch --report "$WORK/report.json" --verbose -- \
  bwrap --bind "$ROOT" / --proc /proc --dev /dev --tmpfs /tmp --die-with-parent \
  --setenv OMPI_ALLOW_RUN_AS_ROOT 1 --setenv OMPI_ALLOW_RUN_AS_ROOT_CONFIRM 1 \
  --setenv OMPI_MCA_rmaps_base_oversubscribe 1 \
  mpirun --oversubscribe -np 4 "$PROG" --seconds 120 --hang sleep --hang-rank 2 --hang-after 9 \
  >"$WORK/watch.out" 2>"$WORK/watch.err" || status=$?
[ "$status" -eq 3 ] || fail "jobsentry watch exited $status, not 3 (a hang claimed)"
json() { jq -r "$1" "$WORK/report.json"; }
[ "$(json .verdict)" = hang ] || fail "verdict $(json .verdict), not hang"
[ "$(json '.suspect_ranks | join(",")')" = 2 ] || fail "suspects $(json '.suspect_ranks | join(",")'), not rank 2"
[ "$(json '.ranks | length')" = 4 ] || fail "$(json '.ranks | length') ranks in the report, not 4"
# The container's program, named from its own symbol table: on this host the path does not exist.
[ "$(json "[.ranks[] | select(.rank == 2) | .frames[] | select(.module == \"$PROG\") | .function] | any(. == \"sleep_forever\")")" = true ] ||
  fail "rank 2's frames do not name sleep_forever in $PROG"
# The container's Open MPI 5, named from its libmpi (this host's libmpi.so.40 is Open MPI 4.1's).
waiting=$(json '[.ranks[] | select(.rank != 2) | .frames[] | select(.function | test("^P?MPI_")) | .function] | unique | join(",")')
[ -n "$waiting" ] || fail "no peer's frames name an MPI function"
pass_line="rank 2 named; its frames name sleep_forever in the container's $PROG; its peers wait in $waiting"
echo "PASS: ranks in a container (Debian 13 userland, bubblewrap), host's jobsentry: $pass_line"
