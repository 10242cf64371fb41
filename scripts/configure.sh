#!/usr/bin/env bash
# Configures a build tree with the package's layout (docs/packaging.md):
# installed paths under /usr, the plugin in Debian's Slurm PluginDir. The one
# place of these arguments, for scripts/build.sh (build/, tests on) and
# scripts/package.sh, so that the package test packs build/ as it is instead
# of building the whole tree a second time.
#   bash scripts/configure.sh BUILD_DIR [CMAKE ARGUMENTS...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [CMAKE ARGUMENTS...]" >&2; exit 2; }
out=$1
shift
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
# JOBSENTRY_CXX_DEBUG_INFO=OFF (environment): the C++ code without -g (the
# test builds: CMakeLists.txt); unset, a build tree keeps what it had.
cmake -S "$top" -B "$out" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  ${JOBSENTRY_CXX_DEBUG_INFO:+-DJOBSENTRY_CXX_DEBUG_INFO=$JOBSENTRY_CXX_DEBUG_INFO} \
  -DCMAKE_INSTALL_PREFIX=/usr -DJOBSENTRY_SLURM_PLUGIN_DIR="/usr/lib/$multiarch/slurm-wlm" "$@"
