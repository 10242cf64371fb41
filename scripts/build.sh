#!/usr/bin/env bash
# Installs missing Debian packages (as root), configures and builds jobsentry
# in build/ (with the package's layout: scripts/configure.sh). Safe to run again: only what changed is rebuilt.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bash "$top/scripts/install-deps.sh"
# The test build: the C++ code without -g (JOBSENTRY_CXX_DEBUG_INFO=ON for gdb).
JOBSENTRY_CXX_DEBUG_INFO=${JOBSENTRY_CXX_DEBUG_INFO:-OFF} \
  bash "$top/scripts/configure.sh" "$top/build" -DJOBSENTRY_BUILD_TESTS=ON >/dev/null
cmake --build "$top/build" -j "$(nproc)"
