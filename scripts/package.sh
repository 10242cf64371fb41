#!/usr/bin/env bash
# Builds the Debian package of this machine's Slurm release in build-deb/:
# jobsentry_<version>-1+slurm<major.minor>_<arch>.deb, installed paths under
# /usr, the plugin in Debian's Slurm PluginDir (docs/packaging.md).
#   bash scripts/package.sh [BUILD_DIR]      prints the .deb's path
# JOBSENTRY_BUILD_TESTS=ON builds the tests in the same tree (one build for both):
# the package test packs build/ (scripts/build.sh), as it is, that way.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build-deb}
bash "$top/scripts/install-deps.sh" build >&2
bash "$top/scripts/configure.sh" "$out" -DJOBSENTRY_BUILD_TESTS="${JOBSENTRY_BUILD_TESTS:-OFF}" \
  -DJOBSENTRY_BUILD_BENCH="${JOBSENTRY_BUILD_BENCH:-ON}" >&2
cmake --build "$out" -j "$(nproc)" >&2
rm -f "$out"/jobsentry_*.deb
(cd "$out" && cpack -G DEB >&2)
ls "$out"/jobsentry_*.deb
