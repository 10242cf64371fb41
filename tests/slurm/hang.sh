#!/usr/bin/env bash
# sbatch --hang-detect with a hang injected into a real MPI job: the job is
# CANCELLED within 60 s of the injection, sacct's AdminComment names the
# suspect rank(s), the report exists and belongs to the user.
#   hang.sh KIND LAUNCH    KIND: sleep | loop | deadlock
#                          LAUNCH: mpirun | srun (Open MPI, PMIx) | mpich (mpiexec.mpich) | srun-pmi2 (MPICH)
. "$(dirname "$0")/lib.sh"
KIND=$1 LAUNCH=$2
RANK=2
NP=4
install -o "$TEST_USER" -m 0755 "$INSTALL/hangprog" "$WORK/hangprog"
args=(--seconds 600 --pid-dir "$WORK/pids")
case $KIND in
  sleep | loop) args+=(--hang "$KIND" --hang-rank "$RANK" --hang-after "$HANG_AFTER"); expected=$RANK ;;
  deadlock) args+=(--hang deadlock --hang-after "$HANG_AFTER"); expected=$(seq -s, 0 $((NP - 1))) ;;
  *) fail "unknown kind $KIND" ;;
esac
as_user mkdir "$WORK/pids"
case $LAUNCH in
  mpirun) job_script job.sh "mpirun -np $NP ./hangprog ${args[*]}" ;;
  srun) job_script job.sh "srun --mpi=pmix -n $NP ./hangprog ${args[*]}" ;;
  # MPICH: Hydra starts its proxies with srun inside the allocation; or srun
  # itself is the process manager, speaking PMI to MPICH's client.
  mpich | srun-pmi2)
    install -o "$TEST_USER" -m 0755 "$INSTALL/hangprog_mpich" "$WORK/hangprog"
    if [ "$LAUNCH" = mpich ]; then job_script job.sh "mpiexec.mpich -n $NP ./hangprog ${args[*]}"
    else job_script job.sh "srun --mpi=pmi2 -n $NP ./hangprog ${args[*]}"; fi ;;
  *) fail "unknown launch $LAUNCH (accepted: mpirun, srun, mpich, srun-pmi2)" ;;
esac
id=$(submit --hang-detect -n "$NP" job.sh)
wait_state "$id" 60 RUNNING
expect_hang_handled "$id" "$expected" CANCELLED
expect_supervisor_gone "$id"
pass "$KIND hang under $LAUNCH: job $id cancelled, rank(s) $expected named"
