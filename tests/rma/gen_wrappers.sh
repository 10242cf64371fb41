# The wrapper generator: the project's list generates one uniform wrapper per
# line (extern "C", noexcept, the reentry guard), and a malformed list is
# refused with its file and line. Optional third argument: the tracer's list,
# whose 'timed' wrappers read the clock around PMPI and call after_<name>.
set -euo pipefail
GEN=${1:?generator}
PROTOS=${2:?list}
WORK=$(mktemp -d /tmp/jobsentry-gen-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$(dirname "$0")/../contains.sh"

python3 "$GEN" rmacheck "$PROTOS" "$WORK/w.cpp" "$WORK/w.h"
calls=$(grep -c '^[a-z:]* *[a-z0-9 ]*| *int MPI_' "$PROTOS")
[ "$(grep -c '^int MPI_.*) noexcept {$' "$WORK/w.cpp")" -eq "$calls" ] || fail "not one noexcept wrapper per listed call"
# ...each a call of its body with the caller's site (lifted out of an MPI's Fortran library:
# MPICH's mpi_f08 calls the C functions), and two Fortran bindings per call, gfortran's names of
# use mpi (mpi_put_) and of Open MPI's use mpi_f08 (mpi_put_f08_), sharing one conversion.
[ "$(grep -c '^static int body_MPI_.*) noexcept {$' "$WORK/w.cpp")" -eq "$calls" ] || fail "not one body per listed call"
[ "$(grep -c '^    return body_MPI_[A-Za-z_]*(jobsentry::call_site(__builtin_return_address(0))' "$WORK/w.cpp")" -eq "$calls" ] ||
  fail "not every C wrapper passes its caller's site through call_site"
[ "$(grep -c '^void mpi_[a-z_]*[a-z]_(.*MPI_Fint\* ierr) noexcept {$' "$WORK/w.cpp")" -eq "$calls" ] ||
  fail "not one use mpi binding per listed call"
[ "$(grep -c '^void mpi_[a-z_]*_f08_(.*MPI_Fint\* ierr) noexcept {$' "$WORK/w.cpp")" -eq "$calls" ] ||
  fail "not one use mpi_f08 binding per listed call"
grep -A14 '^static void fortran_MPI_Put(' "$WORK/w.cpp" >"$WORK/put"
grep -q 'MPI_Win win = MPI_Win_f2c(\*f_win);' "$WORK/put" || fail "mpi_put_ does not convert its window handle"
grep -q 'const void\* origin_addr = jobsentry::fortran_buffer(f_origin_addr);' "$WORK/put" ||
  fail "mpi_put_ does not map the Fortran buffer sentinels"
grep -q 'body_MPI_Put(site, origin_addr' "$WORK/put" || fail "the Fortran conversion does not pass its caller's site"
grep -q 'if (ierr) \*ierr = static_cast<MPI_Fint>(rc);' "$WORK/put" || fail "mpi_put_ does not set an ierr that is present"
for f in mpi_put_ mpi_put_f08_; do
  grep -A1 "^void $f(" "$WORK/w.cpp" | contains 'fortran_MPI_Put(__builtin_return_address(0), f_origin_addr' ||
    fail "$f does not pass its own caller's site"
done
grep -A14 '^static void fortran_MPI_Waitany(' "$WORK/w.cpp" >"$WORK/waitany"
grep -q '\*f_index != MPI_UNDEFINED) \*f_index += 1;' "$WORK/waitany" || fail "mpi_waitany_ does not give a 1-based index"
[ "$(grep -cE 'rmacheck::Reentry guard(;|\(\{.*\}, [A-Za-z_]+\);)' "$WORK/w.cpp")" -eq "$calls" ] || fail "a wrapper without the guard"
# the guard is told each call's buffers and window (mode 1 keeps some windows closed inside MPI)
grep -q 'rmacheck::Reentry guard({origin_addr}, win);' "$WORK/w.cpp" || fail "MPI_Put's guard is not given its origin and window"
grep -q 'rmacheck::Reentry guard({sendbuf, recvbuf}, MPI_WIN_NULL);' "$WORK/w.cpp" || fail "a collective's guard is not given its buffers"
grep -q 'rmacheck::Reentry guard({}, win);' "$WORK/w.cpp" || fail "a synchronisation's guard is not given its window"
grep -q 'extern "C" {' "$WORK/w.cpp" || fail "wrappers are not extern \"C\""
grep -q 'int on_MPI_Put(const void\* site, const void \*origin_addr' "$WORK/w.h" || fail "hook declaration missing"
grep -q 'record_collective(site, comm, rmacheck::CollKind::all, -1, request);' "$WORK/w.cpp" ||
  fail "a nonblocking collective does not pass its request"
grep -q 'record_collective(site, comm, rmacheck::CollKind::all, -1, nullptr);' "$WORK/w.cpp" ||
  fail "a blocking collective passes a request"

if [ -n "${3:-}" ]; then
  python3 "$GEN" jobtrace "$3" "$WORK/t.cpp" "$WORK/t.h"
  [ "$(grep -cE 'jobtrace::Reentry guard(;|\(\{.*\}, [A-Za-z_]+\);)' "$WORK/t.cpp")" -eq "$(grep -c '| *int MPI_' "$3")" ] ||
    fail "a tracer wrapper without the guard"
  grep -q 'void after_MPI_Send(std::uint64_t start, const void \*buf' "$WORK/t.h" || fail "timed declaration missing"
  grep -q 'if (rc == MPI_SUCCESS) jobtrace::after_MPI_Send(start, buf' "$WORK/t.cpp" || fail "timed call missing"
fi

bad() {  # bad LINE EXPECTED_MESSAGE
  printf '# comment\n%s\n' "$1" >"$WORK/bad.txt"
  if python3 "$GEN" rmacheck "$WORK/bad.txt" "$WORK/b.cpp" "$WORK/b.h" 2>"$WORK/err"; then fail "accepted: $1"; fi
  grep -q "bad.txt:2: $2" "$WORK/err" || fail "for '$1' expected '$2', got: $(cat "$WORK/err")"
}
bad 'hook int MPI_Barrier(MPI_Comm comm)' "expected 'CLASS | prototype'"
bad 'coll:bcast | int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm)' "coll:bcast needs the name"
bad 'coll:all | int MPI_Win_fence(int assert, MPI_Win win)' "a collective needs a 'comm' parameter"
bad 'wrap | int MPI_Barrier(MPI_Comm comm)' "unknown class 'wrap'"
bad 'hook | void MPI_Barrier(MPI_Comm comm)' "expected 'int MPI_Name(params)'"
echo "PASS: generator"
