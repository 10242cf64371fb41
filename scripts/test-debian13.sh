#!/usr/bin/env bash
# The Debian 13 stage of the test command (issue #16): in the root of
# scripts/debian13-root.sh (Slurm 24.11, Open MPI 5.0, MPICH 4.2, Catch2 3,
# GCC 14), build the tree with its tests and its package in one build, the
# package test, the unit and cli labels, a subset of the mpi label under both
# MPIs, then a Slurm 24.11 cluster in the root: the site path and a subset of
# the slurm label against the installed package (scripts/debian13-stage.sh); then, on this host, its
# hangprog's ranks in the root as in a container, watched by this host's jobsentry.
# Every failure line starts with "debian13:". About 5 minutes with the root
# and its build already there, 7.7 with a new root (debootstrap included).
#   test-debian13.sh [prepare]   prepare: only make the root and install its
#   packages (network and disk, little CPU: scripts/test.sh runs it while the
#   host builds), so that the stage itself starts with them there.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s)
bash "$top/scripts/debian13-root.sh" create || { echo "debian13: the Debian 13 root could not be made (above)" >&2; exit 1; }
if [ "${1:-}" = prepare ]; then
  rc=0
  bash "$top/scripts/debian13-root.sh" run bash /src/scripts/debian13-stage.sh packages 2>&1 | sed 's/^/debian13: /' || rc=$?
  echo "debian13: root and packages ready in $(($(date +%s) - start)) s (exit $rc)"
  exit "$rc"
fi
if ! bash "$top/scripts/debian13-root.sh" run bash /src/scripts/debian13-stage.sh 2>&1 | sed 's/^/debian13: /'; then
  echo "debian13: FAILED after $(($(date +%s) - start)) s" >&2
  exit 1
fi
# The stage's build in the root holds hangprog: its ranks, in the root as in a container, watched
# by this host's jobsentry (BUILD: the host's build tree, build/ by default).
root=${JOBSENTRY_TRIXIE_ROOT:-/var/tmp/jobsentry-trixie}
if ! bash "$top/tests/mpi/container_ranks.sh" "${BUILD:-$top/build}/bin/jobsentry" "$root" 2>&1 | sed 's/^/debian13: /'; then
  echo "debian13: FAILED after $(($(date +%s) - start)) s" >&2
  exit 1
fi
echo "debian13: passed in $(($(date +%s) - start)) s"
