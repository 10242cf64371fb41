# Shared setup of the command-line tests: $JOBSENTRY, a scratch $WORK removed
# at exit, fail, and expect_error_of COMMAND PATTERN ARGS... (exit 2 and a
# message with PATTERN on stderr).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../contains.sh"
JOBSENTRY=${JOBSENTRY:?path of the jobsentry binary}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_error_of() {  # expect_error_of COMMAND PATTERN ARGS...
  local command=$1 pattern=$2; shift 2
  local status=0
  "$JOBSENTRY" "$command" "$@" >"$WORK/out" 2>"$WORK/err" || status=$?
  [ "$status" -eq 2 ] || fail "jobsentry $command $* exited $status, expected 2"
  grep -q -- "$pattern" "$WORK/err" || { cat "$WORK/err" >&2; fail "jobsentry $command $*: message lacks '$pattern'"; }
}
