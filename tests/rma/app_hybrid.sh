# rma-check (mode 1) on two real GCC-built MPI + OpenMP codes from Debian, unmodified, 2 ranks x 2
# threads (tests/apps/launch.sh's inputs, a few steps):
#  - LAMMPS: `lmp` needs libgomp only through liblammps.so.0; its ranks must run LLVM libomp in
#    libgomp's place (the report names that runtime and its OMPT), be traced, and show no finding.
#  - CP2K (`cp2k.psmp`, Fortran, `use mpi`): its MPI calls go through the Fortran bindings, which
#    call PMPI_ directly; the module's own Fortran bindings (mpi_init_, ...) must see them: both ranks
#    traced, finalized, no finding, and rma-check saying which Fortran calls it checks.
#  - NWChem with OpenBLAS's OpenMP build first on LD_LIBRARY_PATH (scripts/install-apps.sh unpacks it):
#    an MPI + OpenMP program that makes RMA calls (ARMCI-MPI) beside GCC-built OpenMP threads (its BLAS).
#    rma-check must find libgomp three levels down (nwchem.openmpi -> libblas.so.3 -> libopenblas.so.0
#    -> libgomp.so.1) and the program as mpirun's bare word (on PATH), give its ranks LLVM libomp, and
#    report nothing but ARMCI-MPI's byte/double accumulates (as rma_app_nwchem).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../jobsentry_under_test.sh"
for app in lmp cp2k.psmp nwchem.openmpi; do
  command -v "$app" >/dev/null || { echo "FAIL: $app missing: run scripts/install-apps.sh" >&2; exit 1; }
done
WORK=$(mktemp -d /tmp/jobsentry-rma-hybrid.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_btl=self,vader OMP_NUM_THREADS=2
fail() { echo "FAIL: rma_app_hybrid: $*" >&2; tail -20 "$WORK/err" >&2 || true; exit 1; }
# expect STATUS FINISHED_LINE [PATTERN WHY]...: the run's exit status, the application's last words in
# its output, then each PATTERN in rma-check's stderr, or fail saying WHY.
expect() {
  [ "$status" -eq "$1" ] || fail "rma-check exited $status, expected $1"
  grep -q -- "$2" "$WORK/out" || fail "the application did not finish under rma-check"
  shift 2
  while [ $# -gt 0 ]; do grep -q -- "$1" "$WORK/err" || fail "$2"; shift 2; done
}
run() {  # run NAME PROGRAM ARGS...: rma-check in $WORK/NAME; sets status
  mkdir -p "$WORK/$1"
  status=0
  (cd "$WORK/$1" && timeout 300 "$JOBSENTRY" rma-check --report "$WORK/$1.json" --trace-dir "$WORK/$1/traces" -- \
    mpirun --oversubscribe -np 2 -x OMP_NUM_THREADS "${@:2}" >"$WORK/out" 2>"$WORK/err") || status=$?
}

# LAMMPS: examples/melt/in.melt, 32000 atoms, 40 steps.
sed -E -e 's/^region([[:space:]]+)box block 0 10 0 10 0 10/region\1box block 0 20 0 20 0 20/' \
  -e 's/^run([[:space:]]+)250$/run\140/' /usr/share/lammps/examples/melt/in.melt >"$WORK/in.melt"
run lammps "$(command -v lmp)" -in "$WORK/in.melt" -log none
expect 0 '^Loop time of ' \
  'lmp runs GCC.s libgomp, which has no OMPT: its ranks run LLVM libomp' \
  "LAMMPS (libgomp through liblammps.so.0) was not given LLVM libomp" \
  '^NOTE the OpenMP runtime is LLVM libomp .* in place of GCC.s libgomp .* and it offers OMPT' \
  "the report does not name LLVM libomp with OMPT as the runtime LAMMPS ran"
jq -e '(.ranks | length) == 2 and all(.ranks[]; .finalized and .events > 0) and .races == 0 and (.errors | length) == 0' \
  "$WORK/lammps.json" >/dev/null || fail "LAMMPS: not both ranks traced, or a finding: $(jq -c '.ranks, .findings' "$WORK/lammps.json")"
lammps_events=$(jq -c '[.ranks[] | .events]' "$WORK/lammps.json")

# CP2K: the H2O example, 2 MD steps.
sed -E 's/^([[:space:]]*)STEPS 5$/\1STEPS 2/' /usr/share/doc/cp2k/examples/H2O.inp >"$WORK/H2O.inp"
run cp2k "$(command -v cp2k.psmp)" -i "$WORK/H2O.inp"
expect 0 'PROGRAM ENDED AT' \
  "cp2k.psmp is linked with the MPI library's Fortran bindings (libmpi_mpifh.so.40): its calls through include 'mpif.h', use mpi and use mpi_f08 are checked" \
  "rma-check did not say which of CP2K's Fortran MPI calls it checks"
jq -e '(.ranks | length) == 2 and all(.ranks[]; .finalized and .events > 1000) and .races == 0 and (.errors | length) == 0' \
  "$WORK/cp2k.json" >/dev/null || fail "CP2K: not both ranks traced through the Fortran bindings, or a finding: $(jq -c '.ranks, .findings' "$WORK/cp2k.json")"
cp2k_events=$(jq -c '[.ranks[] | .events]' "$WORK/cp2k.json")
# NWChem + OpenBLAS (OpenMP): its inputs from a short native run of launch.sh, then mpirun's bare word.
OPENBLAS=/var/cache/jobsentry/openblas-openmp/usr/lib/x86_64-linux-gnu/openblas-openmp
[ -e "$OPENBLAS/libblas.so.3" ] || fail "$OPENBLAS/libblas.so.3 missing: run scripts/install-apps.sh"
bash "$(dirname "$0")/../apps/launch.sh" nwchem "$WORK/nwchem" 2 5 >/dev/null 2>&1 || fail "NWChem did not run natively"
export LD_LIBRARY_PATH=$OPENBLAS
run nwchem -x LD_LIBRARY_PATH nwchem.openmpi h2o.nw
unset LD_LIBRARY_PATH
[ "$status" -eq 4 ] || [ "$status" -eq 0 ] || fail "rma-check exited $status on NWChem, expected 0 or 4"
expect "$status" '^ Total times' \
  'nwchem.openmpi runs GCC.s libgomp, which has no OMPT: its ranks run LLVM libomp' \
  "NWChem (libgomp through libblas.so.3 and libopenblas.so.0, on LD_LIBRARY_PATH) was not given LLVM libomp" \
  '^NOTE the OpenMP runtime is LLVM libomp .* in place of GCC.s libgomp .* and it offers OMPT' \
  "the report does not name LLVM libomp with OMPT as the runtime NWChem ran"
jq -e '(.errors | length) == 0 and all(.findings[]; .why == "different basic types" and .a.rank == .b.rank and
      ([.a.basic_type, .b.basic_type] | sort) == ["MPI_BYTE", "MPI_DOUBLE"]) and
      (.ranks | length) == 2 and all(.ranks[]; .finalized and .rma_calls >= 10000)' "$WORK/nwchem.json" >/dev/null ||
  fail "NWChem: not both ranks traced with their RMA calls, or findings other than ARMCI-MPI's: $(jq -c '.ranks, [.findings[].line]' "$WORK/nwchem.json")"
nwchem_calls=$(jq -c '[.ranks[] | .rma_calls]' "$WORK/nwchem.json")
echo "PASS: LAMMPS on LLVM libomp in libgomp's place, traced ($lammps_events events a rank), 0 findings; CP2K traced through its Fortran MPI calls ($cp2k_events events a rank), 0 findings; NWChem + OpenBLAS (OpenMP) on LLVM libomp, $nwchem_calls RMA calls a rank, only ARMCI-MPI's byte/double accumulates"
