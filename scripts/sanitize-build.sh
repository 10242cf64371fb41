#!/usr/bin/env bash
# Configures and builds jobsentry with -DJOBSENTRY_SANITIZE=ON (ASan+UBSan,
# cmake/sanitize.cmake) in build-asan/ (or $ASAN_BUILD), beside the normal
# build/. Everything is built, tests included; the plugin, the preload modules,
# libjobsentry_ckpt and the MPI test programs stay uninstrumented. Run the
# tests with the options of scripts/sanitize-env.sh; bench/sanitize.sh does both.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${ASAN_BUILD:-$top/build-asan}
cmake -S "$top" -B "$build" -DJOBSENTRY_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "${JOBS:-$(nproc)}"
