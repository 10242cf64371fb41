#!/usr/bin/env bash
# Another user on the job's nodes can neither pose as a rank nor feed the leader:
# a process of jsother with rank 3's whole environment (its node is n2) is never
# taken for a rank, `jobsentry agent` run by jsother for the job's node n2 is
# refused by the leader (its munge credential is not root's), and 20 connections
# of jsother that never say hello do not stall the leader's sampling (each is
# dropped after 5 s). The job ends normally with its 6 real ranks.
. "$(dirname "$0")/lib.sh"
install -o "$TEST_USER" -m 0755 "$INSTALL/hangprog" "$WORK/hangprog"
as_user mkdir "$WORK/pids"
# 32 s: the refusals, 5 samples and 20 connections held for 9 s (dropped after 5) all happen while it runs.
multi_job_script job.sh "srun --mpi=pmix ./hangprog --seconds 32 --pid-dir $WORK/pids"
id=$(submit --hang-detect "${MULTI_NODE[@]}" job.sh)
wait_state "$id" 60 RUNNING
for _ in $(seq 100); do [ -s "$WORK/pids/rank.3" ] && break; sleep 0.2; done
rank_pid=$(cat "$WORK/pids/rank.3")
grep -qz '^PMIX_RANK=3$' "/proc/$rank_pid/environ" || fail "rank 3 has no PMIX_RANK=3"
grep -q slurm_n2 "/proc/$rank_pid/cgroup" || fail "rank 3 does not run on n2"
mapfile -d '' environment <"/proc/$rank_pid/environ"
FORGE=$(mktemp -d /tmp/jobsentry-forged.XXXXXX)
chmod 0755 "$FORGE"
cp /bin/sleep "$FORGE/forged"
chmod 0755 "$FORGE/forged"
runuser -u "$OTHER_USER" -- env -i "${environment[@]}" "$FORGE/forged" 300 >/dev/null 2>&1 &
runuser -u "$OTHER_USER" -- "$JOBSENTRY_BIN" agent --job-id "$id" --node-index 1 >"$FORGE/agent.log" 2>&1 &
other_uid=$(id -u "$OTHER_USER")
wait_log "$id" 60 "refused a node agent connection: credential of uid $other_uid"
port=$(supervisor_log "$id" | sed -n 's/.*node agents reach it on port \([0-9]*\).*/\1/p' | head -n 1)
[ -n "$port" ] || fail "the leader never said its port"
wait_log "$id" 60 "sample 5 "
samples_now() { supervisor_log "$id" | grep -c " sample [0-9]* t=[0-9.]* late=[0-9.-]*ms I=" || true; }
silent_refused() { supervisor_log "$id" | grep -c "refused a node agent connection: no hello within 5 s" || true; }
before=$(samples_now)
runuser -u "$OTHER_USER" -- python3 -c '
import socket, sys, time
held = [socket.create_connection(("10.77.0.11", int(sys.argv[1])), timeout=5) for _ in range(20)]
time.sleep(9)' "$port" &
silent=$!
# Blocking handshakes would take 2 s each, one after the other: 40 s, and no
# sample meanwhile. They are dropped together after 5 s, sampling going on.
for ((t = 0; t < 150; t++)); do (( $(silent_refused) >= 20 )) && break; sleep 0.1; done
after=$(samples_now)
(( $(silent_refused) >= 20 )) || fail "only $(silent_refused) of 20 silent connections dropped within 15 s"
(( after > before )) || fail "the leader took no sample while 20 silent connections were open ($before -> $after)"
wait "$silent" || fail "the silent connections to port $port could not be made"
forged=$(pgrep -u "$OTHER_USER" -f "^$FORGE/forged 300" || true)
[ -n "$forged" ] || fail "the forged rank did not start"
wait_state "$id" 150 COMPLETED
pkill -u "$OTHER_USER" -f "jobsentry agent --job-id $id" 2>/dev/null || true
kill "$forged" 2>/dev/null || true
comment=$(sacct_field "$id" AdminComment)
[[ "$comment" == "jobsentry: no hang; "* ]] || fail "AdminComment of job $id is '$comment'"
log=$(supervisor_log "$id")
grep -qE "found [7-9] ranks" <<<"$log" && fail "more ranks than the job has"
grep "found .* ranks" <<<"$log" | contains -E "[:/]$forged[ )]" && fail "the forged process was taken for a rank"
grep -q "node agent on n2 connected" <<<"$log" || fail "the real agent of n2 never connected"
rm -rf "$FORGE"
pass "job $id: forged rank (pid $forged) ignored, forged agent of uid $other_uid refused, 20 silent connections dropped while sampling went on ($before -> $after samples)"
