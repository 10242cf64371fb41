#!/usr/bin/env bash
# No test or bench script pipes into `grep -q`: they run under pipefail, where
# grep's exit at the first match can kill the writer with SIGPIPE and fail (or
# silently pass) the check. They pipe into `contains` (tests/contains.sh).
set -euo pipefail
SRC=${SRC:?set by CTest}
# (comments are cut first: from a '#' after a blank or at the line's start)
hits=$(grep -rn --include='*.sh' '' "$SRC/tests" "$SRC/bench" | sed -E 's/(^[^:]+:[0-9]+:|[[:space:]])#.*/\1/' |
       grep -E '(^|[^|])\|[[:space:]]*grep[[:space:]]+-[A-Za-z]*q' || true)
if [ -n "$hits" ]; then
  echo "$hits" >&2
  echo "FAIL: pipe into contains, not grep -q (tests/contains.sh says why)" >&2
  exit 1
fi
echo "PASS: no script pipes into grep -q"
