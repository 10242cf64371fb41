#!/usr/bin/env bash
# sbatch --hang-detect on codes nobody on the team wrote the way they behave:
# a stripped polling program (tests/programs) and a real MPI application
# from Debian's archive (tests/apps/launch.sh), unmodified. KIND none: the
# job completes with "no hang"; otherwise the LD_PRELOAD injector
# (tests/inject) hangs rank 2 in user code and the job must be CANCELLED
# within 60 s of the injection, that rank named.
#   real_code.sh TARGET KIND     TARGET: program name or app:NAME; KIND: none | sleep | spin | read | stop
. "$(dirname "$0")/lib.sh"
TARGET=$1 KIND=$2
RANK=2 NP=4 AT=15
install -o "$TEST_USER" -m 0755 "$SRC/tests/apps/launch.sh" "$WORK/launch.sh"
inject=(export "LD_PRELOAD=$INSTALL/libjobsentry-inject.so" 'JOBSENTRY_INJECT_MARK=$PWD/mark.$SLURM_JOB_ID')
[ "$KIND" = none ] || inject+=("JOBSENTRY_INJECT=$KIND:$RANK:$AT")
case $TARGET in
  app:*)
    # 15 s of work when hang-free, at this machine's rates where the fixture
    # apps_calibrate measured them (tests/apps/launch.sh calibrate).
    rates=
    if [ -r "${JOBSENTRY_APP_RATES:-}" ]; then
      install -o "$TEST_USER" -m 0644 "$JOBSENTRY_APP_RATES" "$WORK/app-rates.env"
      rates="JOBSENTRY_APP_RATES=\$PWD/app-rates.env "
    fi
    run="${rates}bash ./launch.sh ${TARGET#app:} \$PWD/app.\$SLURM_JOB_ID $NP $([ "$KIND" = none ] && echo 15 || echo 600)" ;;
  *)
    install -o "$TEST_USER" -m 0755 "$INSTALL/$TARGET" "$WORK/$TARGET"
    run="mpirun -np $NP -x LD_PRELOAD -x JOBSENTRY_INJECT_MARK $([ "$KIND" = none ] || echo -x JOBSENTRY_INJECT) ./$TARGET --seconds $([ "$KIND" = none ] && echo 40 || echo 600)" ;;
esac
# The test node declares 16 CPUs on a 2-core machine, so Open MPI sees no
# oversubscription and its waiting ranks spin without yielding: fixed-work
# applications then run ~8x slower than outside Slurm. Yield, as on the host.
job_script job.sh "export OMPI_MCA_mpi_yield_when_idle=1" "${inject[*]}" "$run"
id=$(submit --hang-detect -n "$NP" job.sh)
wait_state "$id" 60 RUNNING
if [ "$KIND" = none ]; then
  wait_state "$id" 240 COMPLETED
  comment=$(sacct_field "$id" AdminComment)
  echo "job $id: AdminComment: $comment"
  [[ "$comment" =~ ^jobsentry:\ no\ hang\;\ ([0-9]+)\ samples(\;\ supervisor\ CPU\ [0-9.]+\ %\ of\ the\ job)?$ ]] || fail "AdminComment of job $id is '$comment'"
  grep -q "HANG detected" <(supervisor_log "$id") && fail "the supervisor claimed a hang"
  expect_supervisor_gone "$id"
  pass "$TARGET: hang-free job $id completed with '$comment'"
  exit 0
fi
# The injector's mark gives the moment of injection to expect_hang_handled.
for _ in $(seq 1200); do [ -s "$WORK/mark.$id" ] && break; sleep 0.1; done
[ -s "$WORK/mark.$id" ] || fail "job $id: the hang was never injected"
echo "HANG-INJECTED $(awk 'NR == 1 { print $1 }' "$WORK/mark.$id") $KIND rank $RANK" >>"$WORK/out.$id"
expect_hang_handled "$id" "$RANK" CANCELLED
expect_supervisor_gone "$id"
pass "$TARGET: $KIND of rank $RANK in job $id: cancelled, rank named"
