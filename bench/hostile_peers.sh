#!/usr/bin/env bash
# The leader's port under attack (issue #19). A hang-free 3-node job (6 ranks,
# partition multi of scripts/cluster.sh) runs with --hang-detect; phase after
# phase, bench/hostile_peer.py plays one kind of hostile peer from the host as
# the user jsother for PHASE seconds. Per phase: the connections made, the
# refusals the leader logged, its samples and how late each sample started
# against its schedule (the "late=" of the supervisor's sample lines): the
# jitter under attack against the idle phases before and after. At the end the
# job must be COMPLETED with "no hang", and no rank may be other than the 6.
# Usage: bash bench/hostile_peers.sh [PHASE=20]   (as root, after scripts/build.sh)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
PHASE=${1:-20}
# The credential kinds first: the leader logs its first 100 refusals one by
# one (then every 100th), so their reasons show in full.
KINDS=(idle other_user other_job wrong_role replayed garbage oversized endless flood idle)
bash "$TOP/tests/slurm/setup.sh" >/dev/null  # this build's binaries: build/tests/slurm/cluster-env.sh
. "$TOP/tests/slurm/lib.sh"
LEADER=10.77.0.11  # n1, the job's first node

duration=$(( ${#KINDS[@]} * (PHASE + 10) + 60 ))
multi_job_script job.sh "srun --mpi=pmix $INSTALL/hangprog --seconds $duration"
id=$(submit --hang-detect "${MULTI_NODE[@]}" job.sh)
wait_state "$id" 60 RUNNING
wait_log "$id" 90 "sample 20 "
port=$(supervisor_log "$id" | sed -n 's/.*node agents reach it on port \([0-9]*\).*/\1/p' | head -n 1)
[ -n "$port" ] || fail "the leader never said its port"
leader=$(pgrep -f "jobsentry supervise --job-id $id( |\$)" | head -n 1)
[ -n "$leader" ] || fail "no leader process for job $id"
rss_kib() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$leader/status"; }

# Credentials, made before the phases (munge -s signs as the caller).
payload() { printf '{"jobsentry":"%s","job":%s,"node":"%s"}' "$1" "$2" "$3"; }
credentials() {  # credentials FILE COUNT CMD...: COUNT credentials of CMD, one per line
  local file=$1 count=$2; shift 2
  : >"$file"; chmod 0644 "$file"
  for _ in $(seq "$count"); do "$@" | tr -d '\n' >>"$file"; echo >>"$file"; done
}
CRED=$(mktemp -d /tmp/jobsentry-hostile.XXXXXX); chmod 0755 "$CRED"
trap 'rm -rf "$CRED"; cleanup' EXIT
credentials "$CRED/other_user" 20 runuser -u "$OTHER_USER" -- munge -s "$(payload agent "$id" n2)"
credentials "$CRED/other_job" 20 munge -s "$(payload agent $((id + 1000)) n2)"
credentials "$CRED/wrong_role" 20 munge -s "$(payload leader "$id" "")"
# Root's hello for this job and node, each already decoded once (as if seen
# on the wire): munged refuses it the second time.
credentials "$CRED/replayed" 20 munge -s "$(payload agent "$id" n2)"
while read -r c; do unmunge <<<"$c" >/dev/null; done <"$CRED/replayed"

sample_lines() { supervisor_log "$id" | grep " sample [0-9]* t=" || true; }
stats() {  # median p99 max of numbers on stdin
  sort -g | awk '{v[NR]=$1} END {if (NR == 0) {print "- - -"; exit}
    i99 = int(0.99 * NR + 0.999); if (i99 < 1) i99 = 1
    printf "%.1f %.1f %.1f\n", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[i99], v[NR]}'
}

echo "### The leader's port under attack (job $id: 3 nodes, 6 ranks, $PHASE s per phase)"
echo
echo "Dropped: connections the leader closed on its own within the phase, as the attacker saw them (slowest:"
echo "after the attack's last byte). Late: how late each sample round started against its schedule. Reasons:"
echo "the leader's log (its first 100 refusals one by one, then every 100th)."
echo
echo "| phase | connections | dropped by the leader | slowest drop (s) | samples | late, median (ms) | late, p99 (ms) | late, max (ms) | leader RSS after (MiB) | reasons logged |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for kind in "${KINDS[@]}"; do
  before=$(sample_lines | wc -l) lines_before=$(supervisor_log "$id" | wc -l)
  case $kind in
    idle) sleep "$PHASE"; out="connections=0 dropped=0 slowest_drop_s=-" ;;
    other_user | other_job | wrong_role | replayed)
      out=$(runuser -u "$OTHER_USER" -- python3 "$TOP/bench/hostile_peer.py" hello "$LEADER" "$port" "$PHASE" "$CRED/$kind") ||
        fail "phase $kind: $out" ;;
    *) out=$(runuser -u "$OTHER_USER" -- python3 "$TOP/bench/hostile_peer.py" "$kind" "$LEADER" "$port" "$PHASE") ||
         fail "phase $kind: $out" ;;
  esac
  field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$out"; }
  sleep 6  # what was still waiting for its hello is dropped after 5 s
  late=$(sample_lines | tail -n +$((before + 1)) | sed -n 's/.* late=\([0-9.-]*\)ms.*/\1/p' | stats)
  read -r med p99 max <<<"$late"
  samples=$(( $(sample_lines | wc -l) - before ))
  reasons=$(supervisor_log "$id" | tail -n +$((lines_before + 1)) | sed -n 's/.*refused a node agent connection: \(.*\) ([0-9]* refused so far).*/\1/p' |
    sed 's/uid [0-9]*/uid U/; s/[0-9]\{5,\}/N/g' | sort | uniq -c | sort -rn | head -3 | awk '{n=$1; $1=""; printf "%s%s×%s", (NR > 1 ? "; " : ""), substr($0, 2), n}')
  echo "| $kind | $(field connections) | $(field dropped) | $(field slowest_drop_s) | $samples | $med | $p99 | $max | $(( $(rss_kib) / 1024 )) | ${reasons:--} |"
  (( samples > 0 )) || fail "phase $kind: the leader took no sample"
done
wait_state "$id" $((duration + 120)) COMPLETED FAILED CANCELLED
comment=$(sacct_field "$id" AdminComment)
state=$(sacct_field "$id" State)
echo
echo "Job $id ended $state: $comment"
[[ "$state" == COMPLETED* && "$comment" == "jobsentry: no hang; "* ]] || fail "the job did not end normally"
supervisor_log "$id" | contains -E "found [7-9] ranks|found [1-9][0-9]+ ranks" && fail "the leader counted more ranks than the job's 6"
supervisor_log "$id" | contains "node agent on n2 connected again" && fail "a hostile peer took n2's place"
echo "No sample from a hostile peer: the leader counted the job's 6 ranks only, and no agent connection was replaced."
