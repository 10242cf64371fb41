#!/usr/bin/env bash
# The main job: installs and builds, brings up the project's one-node Slurm
# cluster (scripts/cluster.sh: munge, MariaDB, slurmdbd, slurmctld, slurmd)
# with jobsentry.so enabled, and submits, as the unprivileged user jsuser, a
# 4-rank MPI job whose rank 2 falls asleep forever after 12 s:
#     sbatch --hang-detect job.sh
# jobsentry cancels it within seconds; the demo shows sacct with the
# AdminComment verdict and the report written into the job's directory.
# The cluster stays up afterwards; `bash scripts/cluster.sh down` stops it.
# (Without Slurm: bash scripts/demo-watch.sh.)
#   bash scripts/demo.sh                 install, build into build/, run
#   bash scripts/demo.sh --built DIR     run with the build in DIR (the slurm_demo test)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "demo: run as root (it starts the cluster's daemons)" >&2; exit 1; }
if [ "${1:-}" = --built ]; then
  [ -d "${2:-}" ] || { echo "demo: --built needs a build directory" >&2; exit 2; }
  export JOBSENTRY_BUILD=$(cd "$2" && pwd)
else
  bash "$top/scripts/build.sh"
  export JOBSENTRY_BUILD=$top/build
fi
bash "$top/tests/slurm/setup.sh"

user=jsuser
dir=$(getent passwd "$user" | cut -d: -f6)/jobsentry-demo
runuser -u "$user" -- mkdir -p "$dir"
install -o "$user" -m 0755 /opt/jobsentry-test/hangprog "$dir/hangprog"
cat >"$dir/job.sh" <<'JOB'
#!/bin/bash
#SBATCH -n 4
export OMPI_MCA_btl=self,vader
mpirun --oversubscribe -np 4 ./hangprog --seconds 600 --hang sleep --hang-rank 2 --hang-after 12
JOB
chown "$user:" "$dir/job.sh"

echo "== as $user in $dir: sbatch --hang-detect job.sh   (rank 2 will hang 12 s after start)"
id=$(runuser -u "$user" -- sbatch --parsable --hang-detect --chdir="$dir" --output="$dir/slurm-%j.out" "$dir/job.sh")
echo "== job $id submitted; waiting for jobsentry to act"
for _ in $(seq 600); do
  state=$(scontrol show job "$id" | sed -n 's/.*JobState=\([A-Z]*\).*/\1/p')
  case $state in CANCELLED | COMPLETED | FAILED | TIMEOUT) break ;; esac
  sleep 0.2
done
grep -h "HANG-INJECTED" "$dir/slurm-$id.out" || true
echo "== job $id is $state"
comment=""
for _ in $(seq 100); do  # accounting reaches sacct a moment after the job ends
  comment=$(sacct -j "$id" -X -n -P -o AdminComment)
  [ -n "$comment" ] && break
  sleep 0.2
done
sacct -j "$id" -X -o JobID,JobName,State,Elapsed,AdminComment%120
report="$dir/jobsentry-$id.txt"
if [ -f "$report" ]; then
  echo "== $report ($(stat -c %U "$report")'s file), first 40 lines:"
  head -40 "$report"
fi
echo "== the cluster is still up; stop it with: bash scripts/cluster.sh down"
[ "$state" = CANCELLED ] && [[ "$comment" == "jobsentry: hang at "* ]]
