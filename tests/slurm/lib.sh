# Shared helpers of the Slurm end-to-end tests: real sbatch/srun jobs of the
# unprivileged user jsuser on the project's one-node cluster
# (scripts/cluster.sh), with jobsentry.so enabled in plugstack.conf.d.
# Sourced by each test; every check fails loudly with the evidence.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TEST_USER=jsuser
OTHER_USER=jsother
INSTALL=/opt/jobsentry-test        # where setup.sh put the test programs (and this build's plugin and binaries)
. "$SRC/tests/slurm/installed.sh"   # JOBSENTRY_BIN, PLUGIN_SO, RMA_SO: this build's, or the package's
. "$SRC/tests/contains.sh"
SUPERVISOR_LOGS=/var/log/jobsentry-test
PLUGIN_ARGS_DEFAULT=("supervisor=$JOBSENTRY_BIN" "log_dir=$SUPERVISOR_LOGS" "state_dir=/run/jobsentry-test"
                     "log_samples=yes" "rma_lib=$RMA_SO")  # every sample in the supervisor log, for failures
HOME_DIR=$(getent passwd "$TEST_USER" | cut -d: -f6)
WORK=$(runuser -u "$TEST_USER" -- mktemp -d "$HOME_DIR/e2e.XXXXXX")
JOBS_FILE=$(mktemp /tmp/jobsentry-e2e-jobs.XXXXXX)  # submit runs in $(...): a file, not an array
# Lengths from measured rates (docs/benchmarks.md, "Detection delay" and "Real
# codes"): a sleeping, stopped or deadlocked rank is claimed at most 5.2 s after
# it stops (80 injections).
# HANG_AFTER: healthy seconds before an injected hang: the supervisor has found
#   the ranks and sampled them healthy (as slurm_ctld_down_at_hang always did).
# HANG_FREE_SECONDS: a hang-free run in which a hung-looking process that was
#   wrongly watched would have been claimed four times over (4 x 5.2 s, rounded up).
HANG_AFTER=12
HANG_FREE_SECONDS=25
jobs_submitted() { cat "$JOBS_FILE"; }

cleanup() {
  local id
  for id in $(jobs_submitted); do scancel "$id" 2>/dev/null || true; done
  pkill -u "$OTHER_USER" 2>/dev/null || true
  use_plugin  # back to the default policy for the next test
  rm -rf "$WORK" "$JOBS_FILE"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  local id
  for id in $(jobs_submitted); do
    echo "---- job $id" >&2
    sacct -j "$id" -X -P -o JobID,State,ExitCode,Start,End,AdminComment >&2 || true
    [ -f "$WORK/out.$id" ] && tail -20 "$WORK/out.$id" >&2
    [ -f "$SUPERVISOR_LOGS/job_$id.log" ] && tail -150 "$SUPERVISOR_LOGS/job_$id.log" >&2
  done
  exit 1
}
pass() { echo "PASS: $*"; }

# use_plugin [ARGS...]: the plugstack.conf line of jobsentry.so, default arguments first.
use_plugin() {
  bash "$SRC/scripts/cluster.sh" plugin "$PLUGIN_SO" "${PLUGIN_ARGS_DEFAULT[@]}" "$@" >/dev/null
}

as_user() { runuser -u "$TEST_USER" -- "$@"; }

# A degraded link on node NODE of the multi-node cluster (scripts/cluster.sh: node nX in network
# namespace jsnX, joined to the host's bridge by veth jsvX). This kernel has no netem
# (CONFIG_NET_SCH_NETEM is not set), so the fault is a token-bucket rate limit (tc tbf, which it
# has), whose queue delays every packet, on both directions: jsvX on the host (traffic to the
# node) and eth0 in its namespace (traffic from it).
#   limit_link NODE RATE    unlimit_link NODE
limit_link() {
  tc qdisc add dev "jsv${1#n}" root tbf rate "$2" burst 32kbit latency 400ms
  nsenter --net="/run/netns/jsn${1#n}" tc qdisc add dev eth0 root tbf rate "$2" burst 32kbit latency 400ms
}
unlimit_link() {
  tc qdisc del dev "jsv${1#n}" root 2>/dev/null || true
  nsenter --net="/run/netns/jsn${1#n}" tc qdisc del dev eth0 root 2>/dev/null || true
}

# job_script NAME LINE...: a batch script in WORK, owned by the test user.
job_script() {
  local name=$1; shift
  {
    echo '#!/bin/bash'
    # The node declares more CPUs than the machine has: let mpirun place more
    # ranks than cores, in Open MPI 4.1 (OMPI_MCA_...) and 5 (PRRTE's PRTE_MCA_...).
    echo 'export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1 PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe'
    printf '%s\n' "$@"
  } >"$WORK/$name"
  chown "$TEST_USER:" "$WORK/$name"
}

# multi_job_script NAME LINE...: a batch script for the partition `multi` (nodes n1..n4 in
# network namespaces, scripts/cluster.sh): Open MPI over TCP on the nodes' network only.
multi_job_script() {
  local name=$1; shift
  job_script "$name" \
    'export OMPI_MCA_btl=self,tcp OMPI_MCA_btl_tcp_if_include=10.77.0.0/24 OMPI_MCA_oob_tcp_if_include=10.77.0.0/24' "$@"
}
MULTI_NODE=(-p multi -N 3 --ntasks-per-node=2)  # 6 ranks: 0-1 on n1, 2-3 on n2, 4-5 on n3

# The waits below poll: a file or pgrep every 0.1 s, scontrol and sacct (one RPC each) every
# 0.2 s; SECONDS is their upper bound. (Every 0.5 s, each wait overshot by 0.25 s on average: about
# a second of each Slurm test's time, for a dozen waits per test.)
# wait_log ID SECONDS PATTERN: until the supervisor's log of the job matches (grep -E).
wait_log() {
  local id=$1 seconds=$2 pattern=$3 t
  for ((t = 0; t < seconds * 10; t++)); do
    supervisor_log "$id" | contains -E "$pattern" && return 0
    sleep 0.1
  done
  fail "the supervisor log of job $id never said /$pattern/ within $seconds s"
}

# submit [sbatch options] SCRIPT: prints the job id. Output goes to WORK/out.ID.
submit() {
  local id
  id=$(as_user sbatch --parsable --chdir="$WORK" --output="$WORK/out.%j" "$@") || fail "sbatch $* refused"
  id=${id%%;*}
  echo "$id" >>"$JOBS_FILE"
  echo "$id"
}

# "" when scontrol does not answer (a busy slurmctld): callers ask again, never exit under set -e.
state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' || true; }

# wait_state ID SECONDS STATE...: until the job is in one of the states.
wait_state() {
  local id=$1 seconds=$2; shift 2
  local s t
  for ((t = 0; t < seconds * 5; t++)); do
    s=$(state "$id")
    for want in "$@"; do [ "$s" = "$want" ] && return 0; done
    sleep 0.2
  done
  fail "job $id is ${s:-gone}, expected $* within $seconds s"
}

# sacct's view of the job (accounting in MariaDB through slurmdbd); it can
# lag the controller by a moment, so ask until the field is filled.
sacct_field() {
  local id=$1 field=$2 v t
  for ((t = 0; t < 100; t++)); do
    v=$(sacct -j "$id" -X -n -P -o "$field" 2>/dev/null | head -1)
    [ -n "$v" ] && { echo "$v"; return 0; }
    sleep 0.2
  done
  echo ""
}

# The unix time printed by hangprog when it injected the hang.
injected_at() {
  local t
  for ((t = 0; t < 1200; t++)); do
    v=$(sed -n 's/^HANG-INJECTED \([0-9.]*\).*/\1/p' "$WORK/out.$1" 2>/dev/null | head -1)
    [ -n "$v" ] && { echo "$v"; return 0; }
    sleep 0.1
  done
  fail "job $1 never printed HANG-INJECTED"
}

supervisor_log() { cat "$SUPERVISOR_LOGS/job_$1.log" 2>/dev/null || true; }

# The job's supervisor is gone and its pid file removed once the job ended.
expect_supervisor_gone() {
  local id=$1 t
  for ((t = 0; t < 100; t++)); do
    pgrep -f "jobsentry supervise --job-id $id " >/dev/null || break
    sleep 0.1
  done
  pgrep -f "jobsentry supervise --job-id $id " >/dev/null && fail "the supervisor of job $id still runs after the job ended"
  [ -e "/run/jobsentry-test/job_$id.pid" ] && fail "the pid file of job $id is left behind"
  return 0
}

# expect_hang_handled ID RANKS [STATE...]: the job reached STATE (if given;
# CANCELLED: within 60 s of the injection), sacct's AdminComment names the
# suspect ranks, the report exists and belongs to the user.
expect_hang_handled() {
  local id=$1 ranks=$2 final=${3:-}
  local t0 comment report owner
  t0=$(injected_at "$id")
  shift 2
  [ $# -eq 0 ] || wait_state "$id" 90 "$@"
  local now; now=$(date +%s.%N)
  comment=$(sacct_field "$id" AdminComment)
  echo "job $id: $(state "$id") $(echo "$now - $t0" | bc) s after the injection; AdminComment: $comment"
  [[ "$comment" == "jobsentry: hang at "*"; suspect ranks $ranks; action "* ]] ||
    fail "AdminComment of job $id does not name suspect ranks $ranks: '$comment'"
  report=${comment##*; report }
  [ -f "$report" ] || fail "report $report of job $id does not exist"
  [ ! -L "$report" ] || fail "report $report is a symlink"
  owner=$(stat -c %U "$report")
  [ "$owner" = "$TEST_USER" ] || fail "report $report belongs to $owner, not $TEST_USER"
  [ "$(jq -r .verdict "$report")" = hang ] || fail "report $report has no hang verdict"
  [ "$(jq -r '.suspect_ranks | join(",")' "$report")" = "$ranks" ] || fail "report names other suspects"
  [ -f "${report%.json}.txt" ] || fail "text report missing"
  [ "$final" = CANCELLED ] || return 0
  local end
  end=$(date -d "$(sacct_field "$id" End)" +%s)
  local delay
  delay=$(echo "$end - $t0" | bc)
  echo "job $id: End - injection = $delay s"
  (( $(echo "$delay <= 60" | bc) )) || fail "job $id ended $delay s after the injection (limit 60 s)"
}
