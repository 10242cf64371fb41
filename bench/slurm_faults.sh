#!/usr/bin/env bash
# Slurm's daemons failing while jobs are watched (issue #19), on the project's
# cluster: slurmctld, munged or slurmdbd stopped for OUTAGE seconds around a
# hang's annotation and cancel, and slurmctld stopped at a hang-free job's end.
# Per case: what the supervisor did (its attempts), when the job ended against
# the daemon's return, the AdminComment sacct shows, and whether any
# supervisor process of the job was left behind.
# Usage: bash bench/slurm_faults.sh [OUTAGE=40] [CASES="slurmctld munged slurmdbd end"]   (as root)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUTAGE=${1:-40}
CASES=${2:-"slurmctld munged slurmdbd end"}
bash "$TOP/tests/slurm/setup.sh" >/dev/null  # this build's binaries: build/tests/slurm/cluster-env.sh
. "$TOP/tests/slurm/lib.sh"
trap 'bash "$TOP/scripts/cluster.sh" up >/dev/null 2>&1 || true; cleanup' EXIT

pidfile() {
  case $1 in
    slurmctld) echo /run/jobsentry-cluster/slurmctld.pid ;;
    slurmdbd) echo /run/jobsentry-cluster/slurmdbd.pid ;;
    munged) echo /run/munge/munged.pid ;;
  esac
}
stop_daemon() {
  local pid; pid=$(cat "$(pidfile "$1")")
  kill -TERM "$pid"
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid"
}
supervisors_left() { pgrep -f "jobsentry supervise --job-id $1( |\$)" | wc -l; }
since() { echo "$(date +%s.%N) - $1" | bc | xargs printf '%.1f'; }
# The job's state and AdminComment once slurmctld answers again (sacct may lag
# behind slurmdbd's return: up to 60 s).
settled() {
  local id=$1 want=$2 comment=""
  wait_state "$id" 180 "$want" || true
  for _ in $(seq 60); do
    comment=$(sacct_field "$id" AdminComment)
    [ -n "$comment" ] && break
    sleep 1
  done
  echo "$comment"
}

echo "### Slurm's daemons stopped while jobs are watched ($OUTAGE s outages)"
echo
echo "| case | stopped | hang found, s after stop | cluster up again, s after stop | job ended, s after stop | supervisor's attempts | end state | AdminComment | supervisors left |"
echo "|---|---|---|---|---|---|---|---|---|"
for case in $CASES; do
  if [ "$case" = end ]; then
    job_script "job_$case.sh" "mpirun -np 4 $INSTALL/hangprog --seconds 25"
    daemon=slurmctld
  else
    job_script "job_$case.sh" "mpirun -np 4 $INSTALL/hangprog --seconds 600 --hang sleep --hang-rank 2 --hang-after 25"
    daemon=$case
  fi
  id=$(submit --hang-detect -n 4 "job_$case.sh")
  wait_state "$id" 60 RUNNING
  wait_log "$id" 60 "sample 10 "
  sleep 8  # the outage starts shortly before the hang (at 25 s) or the job's end (25 s)
  stopped_at=$(date +%s.%N)
  stop_daemon "$daemon"
  found="-"
  if [ "$case" != end ]; then
    for _ in $(seq $((OUTAGE * 5))); do
      supervisor_log "$id" | contains "HANG detected" && { found=$(since "$stopped_at"); break; }
      sleep 0.2
    done
  fi
  sleep "$(echo "$OUTAGE - $(since "$stopped_at")" | bc | sed 's/^-.*/0/')"
  bash "$TOP/scripts/cluster.sh" up >/dev/null
  back=$(since "$stopped_at")
  if [ "$case" = end ]; then comment=$(settled "$id" COMPLETED); else comment=$(settled "$id" CANCELLED); fi
  ended=$(( $(date -d "$(sacct_field "$id" End)" +%s) ))
  ended=$(echo "$ended - $stopped_at" | bc | xargs printf '%.0f')
  for _ in $(seq 90); do [ "$(supervisors_left "$id")" = 0 ] && break; sleep 1; done
  attempts=$(supervisor_log "$id" | grep -cE "attempt [0-9]+ failed" || true)
  final=$(supervisor_log "$id" | grep -oE "done at attempt [0-9]+|given up after [0-9]+ attempts|not retried" | tail -1 || true)
  echo "| $case | $daemon | $found | $back | $ended | $attempts failed${final:+, $final} | $(sacct_field "$id" State) | ${comment:0:90} | $(supervisors_left "$id") |"
done
