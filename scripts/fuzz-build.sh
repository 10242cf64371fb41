#!/usr/bin/env bash
# Configures and builds the fuzz targets of tests/fuzz in build-fuzz/ (or
# $FUZZ_BUILD): a build dir of its own, with clang and -DJOBSENTRY_FUZZ=ON
# (ASan+UBSan+libFuzzer), beside the normal build/. Only the fuzz targets and
# the libraries they call are built there. Used by scripts/test-fuzz.sh and
# bench/fuzz.sh.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD:-$top/build-fuzz}
CC=clang CXX=clang++ cmake -S "$top" -B "$build" -DJOBSENTRY_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "${JOBS:-$(nproc)}" --target fuzz_targets
