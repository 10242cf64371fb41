#!/usr/bin/env bash
# Installs missing Debian packages (as root), configures and builds jobsentry
# in build/. Safe to run again: only what changed is rebuilt.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bash "$top/scripts/install-deps.sh"
cmake -S "$top" -B "$top/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$top/build" -j "$(nproc)"
