#!/usr/bin/env bash
# The leader of a multi-node job with hundreds of node agents (bench/leader_scale.cpp):
# the real AgentHub, real munge credentials (munged is started if it is not running,
# as scripts/cluster.sh does), real TCP on loopback (no network namespaces: every
# agent connects to 127.0.0.1), one process per agent (bench/leader_scale_agent.cpp,
# nodes n0001..nNNNN, RANKS ranks each). Prints three markdown tables: the leader's cost,
# what it says when agents are lost in the middle of a verification, and its link rounds.
# FAN_IN > 0: the agents form the tree of agents of src/hang/multinode/node_tree.h (the leader takes
# FAN_IN connections, relays the rest; the lost agents are leaves below relays); 0: a star.
# RELAY_ENDS=1 (a tree only): the last relay also says goodbye at the round of the losses, and the
# nodes below it must come back unseen, their ranks unreachable.
# LOSE (3): the agents lost mid-verification (leader_scale.cpp says how each is lost; 4 or more adds one
# that refuses the request and, in a tree, a relay slow over its own ranks above the silent one).
# Usage: [RELAY_ENDS=1] [LOSE=3] bash bench/leader_scale.sh [AGENTS="16 64 256 512"] [RANKS=64] [FAN_IN=0]   (as root)
. "$(dirname "$0")/common.sh"
AGENTS=${1:-"16 64 256 512"}
RANKS=${2:-64}
FAN_IN=${3:-0}
LOSE=${LOSE:-3}
[[ $LOSE =~ ^[0-9]+$ ]] || { echo "LOSE '$LOSE': accepted are whole numbers from 0 (fewer than the agents)" >&2; exit 2; }
[[ $FAN_IN =~ ^[0-9]+$ ]] || { echo "FAN_IN '$FAN_IN': accepted are 0 (a star) and whole numbers from 1" >&2; exit 2; }
TREE=(); [ "$FAN_IN" -eq 0 ] || TREE=(--fan-in "$FAN_IN")
[ "$FAN_IN" -eq 0 ] || [ "${RELAY_ENDS:-0}" != 1 ] || TREE+=(--relay-ends)
LEADER=$BUILD/bench/leader_scale
[ -x "$LEADER" ] && [ -x "$BUILD/bench/leader_scale_agent" ] || { echo "build first: bash scripts/build.sh" >&2; exit 1; }

munge_ok() { munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; }
if ! munge_ok; then
  [ "$(id -u)" -eq 0 ] || { echo "munged is not running; start it (as root)" >&2; exit 1; }
  [ -s /etc/munge/munge.key ] || runuser -u munge -- mungekey --create --keyfile=/etc/munge/munge.key
  install -d -m 755 -o munge -g munge /run/munge
  install -d -m 711 -o munge -g munge /var/lib/munge
  install -d -m 700 -o munge -g munge /var/log/munge
  # The pid file scripts/cluster.sh uses: its `up` then takes this munged as its own.
  runuser -u munge -- munged --pid-file=/run/munge/munged.pid </dev/null
  for _ in $(seq 50); do munge_ok && break; sleep 0.2; done
  munge_ok || { echo "munged did not start (see /var/log/munge/munged.log)" >&2; exit 1; }
fi

"$LEADER" --header >"$SCRATCH/header"
: >"$SCRATCH/rows"
for n in $AGENTS; do
  "$LEADER" --agents "$n" --ranks-per-node "$RANKS" --lose "$LOSE" "${TREE[@]}" 2>"$SCRATCH/leader.$n.log" >>"$SCRATCH/rows" ||
    { echo "leader_scale --agents $n failed:" >&2; tail -20 "$SCRATCH/leader.$n.log" >&2; }
done
shape=$([ "$FAN_IN" -eq 0 ] && echo "a star" || echo "a tree of agents of fan-in $FAN_IN")
echo "### The leader's cost ($shape, $RANKS ranks per agent; a verification: 5 compact rounds, then the report's stacks)"
echo
sed -n 's/^cost: //p' "$SCRATCH/header" "$SCRATCH/rows"
echo
echo "### Agents lost in the middle of a verification"
echo
sed -n 's/^loss: //p' "$SCRATCH/header" "$SCRATCH/rows"
echo
echo "### Link rounds (one node's ranks sampled, every node's link read, the link-only requests bounded)"
echo
sed -n 's/^link: //p' "$SCRATCH/header" "$SCRATCH/rows"
