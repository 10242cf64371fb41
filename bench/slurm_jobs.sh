#!/usr/bin/env bash
# Slurm end to end, on the project's one-node cluster, as the test user:
#  1. HANG jobs (`sbatch --hang-detect`, default settings, 4 ranks, one hang
#     injected after 20 s, kinds and launchers in turn): time from the
#     injection to the job's End in sacct (state CANCELLED);
#  2. FREE hang-free jobs (4 ranks, 30 s, plain and long single-rank phases,
#     mpirun and srun), submitted 4 at a time so that 16 ranks share the 2
#     cores: how many were cancelled (target 0).
# Usage: bash bench/slurm_jobs.sh [HANG=10] [FREE=20]   (as root; about 10 min)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
HANG=${1:-10} FREE=${2:-20}
bash "$TOP/tests/slurm/setup.sh" >/dev/null  # this build's binaries: build/tests/slurm/cluster-env.sh
. "$TOP/tests/slurm/lib.sh"
. "$TOP/bench/common.sh"
install -o "$TEST_USER" -m 0755 "$INSTALL/hangprog" "$WORK/hangprog"
kinds=("sleep mpirun" "loop mpirun" "deadlock mpirun" "sleep srun" "loop srun")

echo "### Hang jobs: injection to CANCELLED in sacct ($HANG jobs, default settings, 4 ranks)"
echo
echo "| job | kind | launch | state | suspects | injection → End (s) | AdminComment 'after' (s) |"
echo "|---|---|---|---|---|---|---|"
: >"$SCRATCH/delays"
for ((i = 0; i < HANG; i++)); do
  read -r kind launch <<<"${kinds[i % ${#kinds[@]}]}"
  hang=(--hang "$kind" --hang-after 20)
  [ "$kind" = deadlock ] || hang+=(--hang-rank $((i % 4)))
  cmd="mpirun -np 4"
  [ "$launch" = srun ] && cmd="srun --mpi=pmix -n 4"
  job_script "hang$i.sh" "$cmd ./hangprog --seconds 600 ${hang[*]}"
  id=$(submit --hang-detect -n 4 "hang$i.sh")
  t0=$(injected_at "$id")
  wait_state "$id" 120 CANCELLED COMPLETED FAILED
  end=$(date -d "$(sacct_field "$id" End)" +%s)
  comment=$(sacct_field "$id" AdminComment)
  after=$(sed -n 's/.* after \([0-9.]*\)s;.*/\1/p' <<<"$comment")
  suspects=$(sed -n 's/.*suspect ranks \([^;]*\);.*/\1/p' <<<"$comment")
  delay=$(echo "$end - $t0" | bc)
  echo "$delay" >>"$SCRATCH/delays"
  echo "| $id | $kind | $launch | $(state "$id") | $suspects | $delay | ${after:--} |"
done
read -r med p90 _ min max n < <(stats "$SCRATCH/delays")
echo
echo "Injection → CANCELLED: median **$med s**, p90 $p90 s, min $min s, max $max s over $n jobs" \
  "(sacct's End has 1 s resolution)."
echo

echo "### Hang-free jobs: false cancellations ($FREE jobs, 4 at a time, 16 ranks on 2 cores)"
echo
echo "| job | program | launch | state | AdminComment |"
echo "|---|---|---|---|---|"
false_alarms=0
for ((i = 0; i < FREE; i += 4)); do
  ids=()
  for ((j = i; j < i + 4 && j < FREE; j++)); do
    prog="--seconds 30"
    [ $((j % 2)) -eq 1 ] && prog="--seconds 30 --long-phases"
    cmd="mpirun -np 4"
    [ $(((j / 2) % 2)) -eq 1 ] && cmd="srun --mpi=pmix -n 4"
    job_script "free$j.sh" "$cmd ./hangprog $prog"
    ids+=("$(submit --hang-detect -n 4 "free$j.sh")")
  done
  for id in "${ids[@]}"; do
    wait_state "$id" 300 COMPLETED CANCELLED FAILED
    comment=$(sacct_field "$id" AdminComment)
    [ "$(state "$id")" = COMPLETED ] || false_alarms=$((false_alarms + 1))
    script=$(scontrol show job "$id" | sed -n 's/.*Command=\(.*\)/\1/p')
    line=$(sed -n 3p "$script")
    echo "| $id | ./hangprog ${line#*./hangprog } | ${line%% *} | $(state "$id") | $comment |"
  done
done
echo
echo "False cancellations: **$false_alarms** of $FREE hang-free jobs."
