#!/usr/bin/env bash
# --rma-check: the checker's preload module reaches the ranks of a real job
# (mpirun inside the batch script, and srun --mpi=pmix), the traces are
# analysed at job end as the user, the findings are the user's files, and
# sacct's AdminComment carries the count. A bad value is refused at submission.
. "$(dirname "$0")/lib.sh"
install -o "$TEST_USER" -m 0755 "$INSTALL/rma_put_put" "$WORK/rma_put_put"
src=$SRC/tests/rma/put_put.c
line=$(grep -n MPI_Put "$src" | head -1 | cut -d: -f1)

out=$(as_user sbatch --rma-check=fast --chdir="$WORK" --wrap true 2>&1) && fail "sbatch --rma-check=fast was accepted: $out"
[[ "$out" == *"--rma-check=fast: accepted values are"* ]] || fail "sbatch --rma-check=fast: unclear refusal: $out"

# expect_rma ID RACES: the job completed, its report and findings exist and
# are the user's, and the AdminComment counts RACES.
expect_rma() {
  local id=$1 races=$2 report comment
  wait_state "$id" 120 COMPLETED
  report="$WORK/jobsentry-rma-$id.json"
  for f in "$report" "${report%.json}.txt"; do
    [ -f "$f" ] && [ ! -L "$f" ] || fail "job $id: no findings file $f"
    [ "$(stat -c %U "$f")" = "$TEST_USER" ] || fail "$f belongs to $(stat -c %U "$f")"
  done
  [ "$(jq '.ranks | length' "$report")" = 3 ] || fail "job $id: $report does not hold 3 rank traces"
  [ "$(jq .races "$report")" = "$races" ] || fail "job $id: $(jq .races "$report") races, expected $races: $(cat "${report%.json}.txt")"
  comment=$(sacct_field "$id" AdminComment)
  echo "job $id: AdminComment: $comment"
  [[ "$comment" == *"jobsentry rma: $races race"*" in 3 rank traces; report $report"* ]] ||
    fail "AdminComment of job $id does not count $races races: '$comment'"
  [ ! -e "/run/jobsentry-test/job_$id.rma" ] || fail "the analysis mark of job $id is left behind"
}

job_script racy.sh "mpirun -np 3 ./rma_put_put racy"
id=$(submit --rma-check -n 3 racy.sh)
expect_rma "$id" 1
grep -Eq "^RACE remote put\(rank 0, put_put.c:$line\) vs put\(rank 2, put_put.c:$line\) on win 1 bytes \[20,24\) of rank 1" \
  "$WORK/jobsentry-rma-$id.txt" || fail "job $id: the race is not named with both lines: $(cat "$WORK/jobsentry-rma-$id.txt")"

job_script fixed.sh "srun --mpi=pmix -n 3 ./rma_put_put fixed"
id2=$(submit --rma-check=all --hang-detect -n 3 fixed.sh)  # =all: mode 1 watching every operation
expect_rma "$id2" 0
pass "--rma-check: job $id (mpirun) 1 race named with both lines; job $id2 (srun, =all, race-free twin) 0 races"
