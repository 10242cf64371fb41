#!/usr/bin/env bash
# Inside the Debian 13 root (scripts/test-debian13.sh runs it): one build with
# the tests and the package; the package test; the unit and cli labels; then a
# Slurm 24.11 cluster with accounting in this root, on ports of its own
# (scripts/cluster.sh with CLUSTER_MULTI=0 CLUSTER_PORT_BASE=6917), the site
# path on it (tests/package/site_slurm.sh: the package installed), and subsets
# of the mpi label (Open MPI 5, MPICH 4.2) and of the slurm label against the
# installed package (JOBSENTRY_PACKAGED=1). The cluster is always stopped and
# the package purged.
#   debian13-stage.sh [packages|all]   packages: only the root's packages (what
#   scripts/test.sh prepares while the host builds); all (default): everything.
set -euo pipefail
what=${1:-all}
case $what in packages | all) ;; *) echo "usage: debian13-stage.sh [packages|all] (not '$what')" >&2; exit 2 ;; esac
export DEBIAN_FRONTEND=noninteractive
step() { echo "== $* ($(date +%T))"; }
mirror_hint="the root's mirror ($(cat /etc/apt/sources.list)) must be reachable and carry trixie; run again when it is"
# apt gives up on an unreachable mirror by itself (its own timeouts): say what to do.
timeout 900 apt-get update -qq || { echo "apt-get update failed: $mirror_hint" >&2; exit 1; }
step "packages"
timeout 1800 bash /src/scripts/install-deps.sh all >/dev/null ||
  { echo "installing the packages failed (above): $mirror_hint" >&2; exit 1; }
[ "$what" = packages ] && exit 0
grep -E '^(PRETTY_NAME)=' /etc/os-release
echo "Slurm $(dpkg-query -W -f='${Version}' libslurm-dev), Open MPI $(dpkg-query -W -f='${Version}' libopenmpi-dev)," \
  "MPICH $(dpkg-query -W -f='${Version}' libmpich-dev), GCC $(gcc -dumpversion)"
step "build and package test"
JOBSENTRY_BUILD_TESTS=ON JOBSENTRY_BUILD_BENCH=OFF JOBSENTRY_CXX_DEBUG_INFO=OFF PACKAGE_BUILD=/root/build HANGPROG=/root/build/tests/programs/hangprog \
  bash /src/tests/package/deb.sh
cd /root/build
deb=$(ls /root/build/jobsentry_*.deb)
rc=0
step "unit and cli labels"
# unit_tests by hand, without the test that needs a supervisor outside any chroot (a mount namespace
# of its own: test_stack_walker.cpp says why; tests/mpi/container_ranks.sh covers Debian 13's ranks).
ctest --output-on-failure -j 2 -L 'unit|cli' -E '^unit_tests$' || rc=1  # none of them timed: in pairs, as on Debian 12
./tests/unit/unit_tests '~[mount-namespace]' || rc=1

step "Slurm cluster; the site path; the mpi and slurm subsets against the installed package"
export CLUSTER_MULTI=0 CLUSTER_PORT_BASE=6917
# The slurm tests rewrite the package's plugstack conffile (scripts/cluster.sh
# plugin): the package goes with the cluster.
trap 'bash /src/scripts/cluster.sh down >/dev/null 2>&1 || true; apt-get purge -y -qq jobsentry >/dev/null 2>&1 || true' EXIT
bash /src/scripts/cluster.sh up | grep '^cluster: up'
# apt install, one plugstack line, a user's sbatch --hang-detect job CANCELLED.
HANGPROG=/root/build/tests/programs/hangprog bash /src/tests/package/site_slurm.sh "$deb" || rc=1
export JOBSENTRY_PACKAGED=1  # from here on the tests run /usr/bin/jobsentry and its modules in /usr/lib
# The mpi cases that run here too, chosen to stay within the test command's
# time: a rank asleep and a deadlock under Open MPI 5's mpirun (PRRTE), a
# polling program hang-free, the checkpoint library, rma-check (accumulate ordering
# under Open MPI 5, mode 1 at the target of a GCC 14 -fopenmp program whose window
# stays protected inside MPI, and mode 2 with clang 19 and its loop summaries); a rank
# asleep, the checkpoint library and rma-check under MPICH 4.2's Hydra (with its
# MPICH module, and a module of the wrong MPI refused plainly). The others
# repeat these on Debian 12 or need the applications of scripts/install-apps.sh.
ctest --output-on-failure -R '^(mpi_hang_sleep|mpi_hang_deadlock|mpi_real_no_hang_random_access|mpi_ckpt_restart|rma_put_put|rma_acc_order|rma_loop_walk--precise|rma_gcc_omp_target_load|rma_mpich_put_put|mpi_mpich_hang_sleep|mpi_mpich_ckpt_restart|rma_mpich_refused)$' || rc=1
# Open MPI 5 under srun (PMIx), MPICH under mpiexec (Hydra over srun) and
# under srun --mpi=pmi2, and the plugin's refusals of bad options.
ctest --output-on-failure \
  -R '^(slurm_bad_input|slurm_hang_sleep_srun|slurm_hang_sleep_mpich|slurm_hang_deadlock_srun_pmi2)$' || rc=1
exit $rc
