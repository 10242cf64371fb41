#!/usr/bin/env bash
# jobsentry --version: the first thing a bug report needs. The version must be
# the project's, the commit this checkout's, the Slurm release the installed
# headers' (or "unknown" where there is none).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
line=$("$JOBSENTRY" --version)
echo "$line"
version=$(sed -n 's/^project(jobsentry VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
[[ "$line" == "jobsentry $version (commit "* ]] || fail "version: '$line', expected jobsentry $version"
if git -C "$SRC" rev-parse HEAD >/dev/null 2>&1; then
  commit=$(git -C "$SRC" rev-parse --short=12 HEAD)
  [[ "$line" == *"(commit $commit"* ]] || fail "commit: '$line', this checkout is at $commit"
fi
if [ -f /usr/include/slurm/slurm_version.h ]; then
  n=$(sed -n 's/^#define SLURM_VERSION_NUMBER \(0x[0-9a-fA-F]*\)/\1/p' /usr/include/slurm/slurm_version.h)
  release=$(printf '%d.%02d.%d' $((n >> 16 & 255)) $((n >> 8 & 255)) $((n & 255)))
  [[ "$line" == *"built for Slurm $release)" ]] || fail "Slurm release: '$line', the headers are $release"
fi
"$JOBSENTRY" --help | contains -- "--version" || fail "jobsentry --help does not mention --version"
echo "PASS: jobsentry --version"
