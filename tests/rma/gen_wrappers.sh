# The wrapper generator: the project's list generates one uniform wrapper per
# line (extern "C", noexcept, the reentry guard), and a malformed list is
# refused with its file and line.
set -euo pipefail
GEN=${1:?generator}
PROTOS=${2:?list}
WORK=$(mktemp -d /tmp/jobsentry-gen-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

python3 "$GEN" "$PROTOS" "$WORK/w.cpp" "$WORK/w.h"
calls=$(grep -c '^[a-z:]* *[a-z0-9 ]*| *int MPI_' "$PROTOS")
[ "$(grep -c ') noexcept {$' "$WORK/w.cpp")" -eq "$calls" ] || fail "not one noexcept wrapper per listed call"
[ "$(grep -c 'rmacheck::Reentry guard;' "$WORK/w.cpp")" -eq "$calls" ] || fail "a wrapper without the guard"
grep -q 'extern "C" {' "$WORK/w.cpp" || fail "wrappers are not extern \"C\""
grep -q 'int on_MPI_Put(const void\* site, const void \*origin_addr' "$WORK/w.h" || fail "hook declaration missing"
grep -q 'record_collective(site, comm, rmacheck::CollKind::all, -1, request);' "$WORK/w.cpp" ||
  fail "a nonblocking collective does not pass its request"
grep -q 'record_collective(site, comm, rmacheck::CollKind::all, -1, nullptr);' "$WORK/w.cpp" ||
  fail "a blocking collective passes a request"

bad() {  # bad LINE EXPECTED_MESSAGE
  printf '# comment\n%s\n' "$1" >"$WORK/bad.txt"
  if python3 "$GEN" "$WORK/bad.txt" "$WORK/b.cpp" "$WORK/b.h" 2>"$WORK/err"; then fail "accepted: $1"; fi
  grep -q "bad.txt:2: $2" "$WORK/err" || fail "for '$1' expected '$2', got: $(cat "$WORK/err")"
}
bad 'hook int MPI_Barrier(MPI_Comm comm)' "expected 'CLASS | prototype'"
bad 'coll:bcast | int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm)' "coll:bcast needs the name"
bad 'coll:all | int MPI_Win_fence(int assert, MPI_Win win)' "a collective needs a 'comm' parameter"
bad 'wrap | int MPI_Barrier(MPI_Comm comm)' "unknown class 'wrap'"
bad 'hook | void MPI_Barrier(MPI_Comm comm)' "expected 'int MPI_Name(params)'"
echo "PASS: generator"
