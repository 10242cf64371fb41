#!/usr/bin/env bash
# The site path of docs/packaging.md on a real Slurm cluster: `apt install` of
# the package, its one plugstack line uncommented (nothing else: the plugin's
# defaults), and a user's `sbatch --hang-detect` MPI job with one rank asleep
# is CANCELLED, sacct's AdminComment naming that rank. The Debian 13 stage
# (scripts/debian13-stage.sh) runs it on Slurm 24.11 with Open MPI 5.
#   site_slurm.sh DEB      the cluster of scripts/cluster.sh up; HANGPROG set
set -euo pipefail
DEB=${1:?the .deb to install}
: "${HANGPROG:?the hangprog test program}"
here=$(cd "$(dirname "$0")" && pwd)
case $DEB in /*) ;; *) DEB=$PWD/$DEB ;; esac
[ -f "$DEB" ] || { echo "FAIL: no package $DEB" >&2; exit 1; }
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$DEB" >/tmp/site-apt.log 2>&1 ||
  { cat /tmp/site-apt.log >&2; echo "FAIL: apt install $DEB" >&2; exit 1; }
conf=/etc/slurm/plugstack.conf.d/jobsentry.conf
sed -i 's/^#optional jobsentry\.so$/optional jobsentry.so/' "$conf"
[ "$(grep -v '^[[:space:]]*\(#\|$\)' "$conf")" = "optional jobsentry.so" ] ||
  { echo "FAIL: $conf does not hold the one line 'optional jobsentry.so'" >&2; exit 1; }

export JOBSENTRY_PACKAGED=1
. "$here/../slurm/lib.sh"
SUPERVISOR_LOGS=/var/log/jobsentry  # the plugin's default log_dir
site_cleanup() {
  local id
  for id in $(jobs_submitted); do scancel "$id" 2>/dev/null || true; done
  sed -i 's/^optional jobsentry\.so$/#optional jobsentry.so/' "$conf"
  rm -rf "$WORK" "$JOBS_FILE"
}
trap site_cleanup EXIT
echo "site: $(dpkg-query -W -f='${Package} ${Version}' jobsentry) on Slurm $(scontrol --version | awk '{print $2}'), $(mpirun --version 2>&1 | head -1); $conf: optional jobsentry.so"

install -o "$TEST_USER" -m 0755 "$HANGPROG" "$WORK/hangprog"
job_script job.sh "mpirun -np 4 ./hangprog --seconds 600 --hang sleep --hang-rank 2 --hang-after 15"
id=$(submit --hang-detect -n 4 job.sh)
wait_state "$id" 60 RUNNING
expect_hang_handled "$id" 2 CANCELLED
echo "site: sacct -j $id: $(sacct -j "$id" -X -n -P -o JobID,State,AdminComment)"
for _ in $(seq 20); do pgrep -f "jobsentry supervise --job-id $id " >/dev/null || break; sleep 0.5; done
pgrep -f "jobsentry supervise --job-id $id " >/dev/null && fail "the supervisor of job $id outlived it by 10 s"
pass "site install: package, one plugstack line, sbatch --hang-detect: job $id CANCELLED, rank 2 named in AdminComment"
