#!/usr/bin/env bash
# The brief fuzz stage of scripts/test.sh: builds build-fuzz/ (scripts/fuzz-build.sh)
# and runs every fuzz target for a few seconds over its seeds and crash
# regressions (ctest -L fuzz there; about 50 s on a 2-core machine).
# bench/fuzz.sh runs them long.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bash "$top/scripts/fuzz-build.sh"
cd "${FUZZ_BUILD:-$top/build-fuzz}"
ctest --output-on-failure -j 2 -L fuzz "$@"  # each target is one process: two at a time
