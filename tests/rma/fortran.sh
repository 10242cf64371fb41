# RMA checking of Fortran programs (gfortran, mode 1), under Open MPI and MPICH: put_put_f.f90
# (`use mpi`) and put_put_f08.f90 (`use mpi_f08`). The module's generated Fortran bindings
# (mpiwrap/gen_wrappers.py: mpi_put_, and Open MPI's mpi_put_f08_) must see the MPI calls, which the
# MPI's own Fortran bindings make through PMPI_; MPICH's mpi_f08 calls the C functions, whose
# wrappers must name the Fortran line (mpiwrap/call_site.h). Each racy run must exit 4 with the two
# Puts named by their Fortran line, its fixed twin exit 0 with none; both runs also check their
# MPI_IN_PLACE allreduce, request array and status (the program aborts on a wrong result).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../jobsentry_under_test.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d /tmp/jobsentry-rma-fortran.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
fail() { echo "FAIL: rma_fortran ($name $mpi $variant): $*" >&2; cat "$WORK/err" >&2 || true; exit 1; }
passed=()
for name in put_put_f put_put_f08; do
  SRC=$HERE/$name.f90
  line=$(grep -n "call MPI_Put" "$SRC" | cut -d: -f1)
  for mpi in openmpi mpich; do
    variant=build
    case $mpi in
      openmpi) fc=mpif90.openmpi launch=(mpirun.openmpi --oversubscribe -np 3) ;;
      mpich) fc=mpif90.mpich launch=(mpiexec.mpich -n 3) ;;
    esac
    command -v "$fc" >/dev/null || fail "$fc missing: run scripts/install-deps.sh"
    (cd "$WORK" && "$fc" -O0 -g -o "${name}_$mpi" "$SRC") || fail "$fc could not build $SRC"
    for variant in racy fixed; do
      status=0
      timeout 120 "$JOBSENTRY" rma-check --trace-dir "$WORK/traces-$mpi-$variant" --report "$WORK/r.json" -- \
        "${launch[@]}" "$WORK/${name}_$mpi" "$variant" >"$WORK/out" 2>"$WORK/err" || status=$?
      grep -q "its calls through include 'mpif.h', use mpi and use mpi_f08 are checked" "$WORK/err" ||
        fail "rma-check did not say which Fortran calls it checks"
      # Ranks 0 and 2 Put (rank 1 is the target); every rank's window, barriers and requests are traced.
      jq -e '(.ranks | length) == 3 and all(.ranks[]; .finalized and .events >= 8) and
             ([.ranks[] | .rma_calls] == [1, 0, 1])' "$WORK/r.json" >/dev/null ||
        fail "not all 3 ranks traced with their calls: $(jq -c '.ranks' "$WORK/r.json")"
      if [ "$variant" = racy ]; then
        [ "$status" -eq 4 ] || fail "exited $status, expected 4 (races found)"
        grep -Eq "^RACE remote put\(rank 0, $name.f90:$line\) vs put\(rank 2, $name.f90:$line\) on win 1 bytes \[20,24\) of rank 1$" \
          "$WORK/err" || fail "no finding naming both Puts at $name.f90:$line"
        jq -e '.races == 1' "$WORK/r.json" >/dev/null || fail "not exactly one race"
      else
        [ "$status" -eq 0 ] || fail "exited $status, expected 0"
        jq -e '.races == 0' "$WORK/r.json" >/dev/null || fail "a race reported in the fixed twin"
      fi
    done
  done
  passed+=("$name.f90:$line")
done
echo "PASS: gfortran programs through 'use mpi' and 'use mpi_f08' checked under Open MPI and MPICH: the racy Puts named at ${passed[*]}, the fixed twins clean"
