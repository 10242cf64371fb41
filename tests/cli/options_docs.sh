#!/usr/bin/env bash
# The docs and the detection options' spec (src/hang/watch/detection_spec.h)
# cannot drift apart: every row that `jobsentry options TABLE` prints from the
# spec must stand, exactly, in the page that documents that table. Editing a
# default, a range or a help text on one side only fails here.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
check() {  # check TABLE PAGE
  local rows missing=0
  rows=$("$JOBSENTRY" options "$1" | grep '^| `') || fail "jobsentry options $1 printed no rows"
  while IFS= read -r row; do
    grep -Fxq -- "$row" "$SRC/$2" || { echo "not in $2 as the spec has it:" >&2; echo "  $row" >&2; missing=1; }
  done <<<"$rows"
  [ "$missing" -eq 0 ] || fail "$2 differs from the spec: run 'jobsentry options $1' and copy its rows"
  echo "$2: the $(wc -l <<<"$rows") rows of 'jobsentry options $1' match"
}
check watch docs/watch.md
check plugstack docs/slurm.md
check hang-detect docs/slurm.md
expect_error_of options "accepted values are watch, plugstack, hang-detect" nonsense
echo "PASS: the option tables of the docs are the spec's"
