#!/usr/bin/env bash
# Builds the Debian package of this machine's Slurm release in build-deb/:
# jobsentry_<version>-1+slurm<major.minor>_<arch>.deb, installed paths under
# /usr, the plugin in Debian's Slurm PluginDir (docs/packaging.md).
#   bash scripts/package.sh [BUILD_DIR]      prints the .deb's path
# JOBSENTRY_BUILD_TESTS=ON builds the tests in the same tree (one build for both).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build-deb}
bash "$top/scripts/install-deps.sh" build >&2
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
cmake -S "$top" -B "$out" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJOBSENTRY_BUILD_TESTS="${JOBSENTRY_BUILD_TESTS:-OFF}" \
  -DCMAKE_INSTALL_PREFIX=/usr -DJOBSENTRY_SLURM_PLUGIN_DIR="/usr/lib/$multiarch/slurm-wlm" >&2
cmake --build "$out" -j "$(nproc)" >&2
rm -f "$out"/jobsentry_*.deb
(cd "$out" && cpack -G DEB >&2)
ls "$out"/jobsentry_*.deb
