#!/usr/bin/env bash
# A verification round of a multi-node job modelled with the project's LogGOPS simulator
# (bench/leader_goal.py writes the GOAL schedule): the star as built (the leader asks every
# agent and takes every reply) against a tree of fan-in FANIN as built (src/hang/multinode/relay.h:
# relays forward every node's sample; each process's cost is the leader's per message and byte) and
# one in which agents reduce their subtree's replies to one of a node's size (not built). o and O are the leader's CPU per
# message and per byte as bench/leader_scale.sh measured them (defaults: its 256-agent run);
# L, g and G are a 10 Gb/s cluster network's, not measured here. Bytes per agent: request
# and reply of a compact (packed samples, wire::put_samples) and of a full round at 64 ranks a node,
# as measured. O_LARGE_PER_BYTE: the leader's CPU per byte on a message of more than 64 KiB (a
# relay's, a full reply), fitted to a star whose agents answer for 2,112 ranks each
# (`build/bench/leader_scale --agents 8 --ranks-per-node 2112`); default O_PER_BYTE (one O for all).
# Usage: bash bench/leader_goal.sh [NODES="256 1000 10000"] [FANIN=32] [O_NS=29000] [O_PER_BYTE=15.5] [O_LARGE_PER_BYTE]
. "$(dirname "$0")/common.sh"
NODES=${1:-"256 1000 10000"}
FANIN=${2:-32}
O=${3:-29000}
OB=${4:-15.5}
OL=${5:-$OB}
LARGE=(--large-factor "$(awk -v l="$OL" -v o="$OB" 'BEGIN { printf "%.4f", l / o }')")
REQUEST=2900 COMPACT=6700 FULL=189400
params=(--L 5000 --o "$O" --g 1000 --G 0.8 --O "$OB" --S 1000000000)
makespan() {  # NODES REPLY FANIN [relay] -> seconds
  python3 "$TOP/bench/leader_goal.py" "$1" "$REQUEST" "$2" "$3" ${4:-} "${LARGE[@]}" >"$SCRATCH/round.goal"
  "$JOBSENTRY" simulate --goal "$SCRATCH/round.goal" "${params[@]}" --json |
    python3 -c 'import json,sys; print("%.3f" % (json.load(sys.stdin)["makespan_ns"] / 1e9))'
}
echo "| nodes | ranks | star, compact round (s) | star, full round (s) | tree of fan-in $FANIN as built (relays), compact round (s) | tree reduced on the way (not built), compact round (s) | tree reduced, full round (s) |"
echo "|---|---|---|---|---|---|---|"
for n in $NODES; do
  echo "| $n | $((n * 64)) | $(makespan "$n" $COMPACT 0) | $(makespan "$n" $FULL 0) | $(makespan "$n" $COMPACT "$FANIN" relay) | $(makespan "$n" $COMPACT "$FANIN") | $(makespan "$n" $FULL "$FANIN") |"
done
