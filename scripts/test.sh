#!/usr/bin/env bash
# Installs, builds and runs every test: labels unit (pure logic), cli
# (command-line errors and small runs), mpi (real mpirun jobs: jobsentry watch,
# rma-check, the checkpoint library), noise (the probe against injected noise)
# and slurm (the project's one-node cluster, real sbatch/srun jobs with
# jobsentry.so; root only), package (the .deb installed with apt); then the
# Debian 13 stage (scripts/test-debian13.sh), and the fuzz stage
# (scripts/test-fuzz.sh: every libFuzzer target briefly, in build-fuzz/ built
# with clang). Its time per stage: docs/benchmarks.md, "The test command".
# Extra arguments go to ctest, e.g. `bash scripts/test.sh -L unit`.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bash "$top/scripts/install-deps.sh"
# The Debian 13 root and its packages are downloads and unpacking: made while
# this host builds, and waited for before any test runs (the timed tests must
# not share the machine with dpkg).
prepare_pid= prepare_log=$(mktemp /tmp/jobsentry-debian13-prepare.XXXXXX)
if [ $# -eq 0 ]; then
  bash "$top/scripts/test-debian13.sh" prepare >"$prepare_log" 2>&1 &
  prepare_pid=$!
  trap 'kill "$prepare_pid" 2>/dev/null || true' EXIT
fi
# The real MPI applications of the mpi and slurm tests (tests/apps): downloads
# and unpacking too, while the tree builds (install-deps.sh has installed all
# the build needs, so build.sh's own check of it takes no dpkg lock).
apps_log=$(mktemp /tmp/jobsentry-install-apps.XXXXXX)
bash "$top/scripts/install-apps.sh" >"$apps_log" 2>&1 &
apps_pid=$!
bash "$top/scripts/build.sh"
if [ -n "$prepare_pid" ]; then
  # The fuzz stage's clang build (scripts/test-fuzz.sh) while the applications and the Debian 13
  # root may still be downloading: CPU that would otherwise idle (the stage then only checks it is
  # up to date). It installs nothing, so it takes no dpkg lock from install-apps.sh.
  fuzz_log=$(mktemp /tmp/jobsentry-fuzz-build.XXXXXX)
  bash "$top/scripts/fuzz-build.sh" >"$fuzz_log" 2>&1 || { tail -5 "$fuzz_log"; echo "fuzz build failed (the fuzz stage tries again)"; }
  rm -f "$fuzz_log"
fi
wait "$apps_pid" || { cat "$apps_log"; echo "install-apps.sh failed (above)" >&2; exit 1; }
cat "$apps_log"; rm -f "$apps_log"
if [ -n "$prepare_pid" ]; then
  # A failure here is reported by the Debian 13 stage below, which tries again.
  if wait "$prepare_pid"; then tail -1 "$prepare_log"
  else echo "debian13: preparing the root failed (the stage below tries again):"; tail -5 "$prepare_log"; fi
  trap - EXIT
fi
rm -f "$prepare_log"
cd "$top/build"
rc=0
# -j 2: the tests that may share the machine (unit, cli, rma-check's programs,
# the injector's inject_check) run in pairs; every timed test is RUN_SERIAL and
# runs alone. Not -j 4 (all 96 of them in 104 s against 126 s): in one run so,
# rma_hang_killed's killed rank left an empty trace (cause not found; 0 of 12
# runs of four copies at once did).
ctest --output-on-failure --timeout 600 -j 2 "$@" || rc=$?
# Then Debian 13 (Slurm 24.11, Open MPI 5) in a root of its own, unless a
# subset was asked for: about 8 minutes with a new root (scripts/test-debian13.sh).
if [ $# -eq 0 ]; then
  bash "$top/scripts/test-debian13.sh" || rc=1
  bash "$top/scripts/test-fuzz.sh" || rc=1
fi
exit $rc
