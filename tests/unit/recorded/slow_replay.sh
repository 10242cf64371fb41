#!/usr/bin/env bash
# Recorded runs of real applications replayed through this build's slow verdict (bench/slow_replay):
# logs of bench/slow_detection.sh (the watcher's --verbose round and record lines only, gzipped)
# whose verdicts a change to the rule must keep. Both ways: faults named, a balanced run not.
#   slow_replay.sh SLOW_REPLAY
set -euo pipefail
replay=${1:?path of bench/slow_replay}
here=$(dirname "$0")
fail=0
first() { gunzip -c "$here/$1" | "$replay" --baseline-rounds 100 | sed -n 1p; }

# expect_named LOG RANK FAULT_T WHAT: the first slow verdict names RANK alone within 60 s of FAULT_T
# (seconds of the log's clock).
expect_named() {
  local out
  out=$(first "$1")
  if [[ $out =~ ^slow\ at\ round\ [0-9]+,\ t=([0-9.]+)\ s:\ slow:\ rank\ $2\ \( ]] &&
    awk -v t="${BASH_REMATCH[1]}" -v f="$3" 'BEGIN { exit !(t > f && t < f + 60) }'; then
    echo "PASS: $4 named within 60 s: $out"
  else
    echo "FAIL: $4 (from t=$3 s) not named alone within 60 s: $out"; fail=1
  fi
}

# NWChem, 4 ranks on 2 CPUs, rank 1 held to half a CPU by a quota on its own cgroup from t=52.2 s;
# the job ran 1.77x slower by its own steps. Its peers compute inside one-sided MPI calls, so the
# ranks' compute rates say the job is no slower; the quota's throttle count names it
# (decision-rule.md, "A fourth evidence").
expect_named nwchem_quota50_rank1.log.gz 1 52.2 "NWChem's rank 1 under a quota"
# CP2K, rank 3 stopped 60 ms of every 100 ms from t=45.4 s; the job ran 3.18x slower by its steps.
# Its peers gained the CPU it left (51 % of their runnable time against 45 %), which looks like the
# kernel serving one rank less; seen stopped on its own, it is named.
expect_named cp2k_stopcont60_rank3.log.gz 3 45.4 "CP2K's rank 3 stopped and continued"

# LAMMPS, 4 ranks on 2 CPUs, rank 1 held to half a CPU by a quota from t=49.4 s (the job 2.46x slower by
# its output lines), and rank 2 to 30 % from t=48.8 s (3.32x): all samples said 1.48x and 2.60x at the
# end; the samples taken on the CPU (s= under 500 us) say what the CPU time does (decision-rule.md §5).
expect_named lammps_quota50_rank1.log.gz 1 49.4 "LAMMPS's rank 1 under a 50 % quota"
expect_named lammps_quota30_rank2.log.gz 2 48.8 "LAMMPS's rank 2 under a 30 % quota"
# expect_estimate LOG MEASURED FROM WHAT: the estimate at the end comes from FROM and is within +-30 %
# of the measured slowdown (issue 29's target).
expect_estimate() {
  local out
  out=$(gunzip -c "$here/$1" | "$replay" --baseline-rounds 100 | sed -n 's/^at the end: //p')
  if [[ $out =~ ~([0-9.]+)x\ \(from\ $3[\;\)] ]] &&
    awk -v e="${BASH_REMATCH[1]}" -v m="$2" 'BEGIN { exit !(e >= 0.7 * m && e <= 1.3 * m) }'; then
    echo "PASS: $4: $out, measured ${2}x"
  else
    echo "FAIL: $4: '$out', measured ${2}x (from $3 within +-30 % expected)"; fail=1
  fi
}
expect_estimate lammps_quota50_rank1.log.gz 2.46 on_cpu_compute_rates "LAMMPS under a 50 % quota, the estimate at the end"
expect_estimate lammps_quota30_rank2.log.gz 3.32 on_cpu_compute_rates "LAMMPS under a 30 % quota, the estimate at the end"
# CP2K's rank 3 stopped: its peers' waiting, corrected for the CPU they gained (3.48x uncorrected).
expect_estimate cp2k_stopcont60_rank3.log.gz 3.18 peers_waiting "CP2K's rank 3 stopped, the estimate at the end"
# CP2K, rank 0 held to 30 % of a CPU by a quota from t=46.3 s; the job ran 3.55x slower by its steps.
# It computes in too few samples for either compute rate to speak; its launcher (mpirun) relays a
# block of output a step, and the job's output bytes a second say its pace (decision-rule.md §5).
expect_named cp2k_quota30_rank0.log.gz 0 46.3 "CP2K's rank 0 under a 30 % quota"
expect_estimate cp2k_quota30_rank0.log.gz 3.55 output_rate "CP2K under a 30 % quota, the estimate at the end"

# The balanced run of the NWChem campaign: no slow verdict.
out=$(first nwchem_balanced.log.gz)
if [[ $out == "no slow verdict in "* ]]; then echo "PASS: balanced NWChem: $out"
else echo "FAIL: balanced NWChem given a slow verdict: $out"; fail=1; fi
exit $fail
