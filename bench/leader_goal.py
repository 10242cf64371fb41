#!/usr/bin/env python3
"""One verification round of a multi-node job as a GOAL schedule (docs/simulator.md, "GOAL"),
for `jobsentry simulate --goal`: rank 0 is the leader, ranks 1..N the node agents.

  leader_goal.py N REQUEST_BYTES REPLY_BYTES [FANIN [relay]]

Star (FANIN 0): the leader sends every agent its request, then takes the N replies.
Tree (FANIN k): agent i's parent is (i-1)//k (src/hang/multinode/node_tree.h); an agent passes
the request on to its children and waits for their replies before it answers its parent, so that
no one takes more than k replies. Reduced (not built): its reply is of REPLY_BYTES, its subtree's
replies reduced on the way, as LLNL STAT merges stack trees. "relay" (as built, relay.h): its
request and reply carry every node of its subtree, REQUEST_BYTES and REPLY_BYTES for each.
"""
import sys


def children(j, n, k):
    first = j * k + 1
    return list(range(first, min(first + k, n + 1)))


def subtree_size(j, n, k):
    size, first, last = 1, j, j
    while first * k + 1 <= n:
        first, last = first * k + 1, min(last * k + k, n)
        size += last - first + 1
    return size


def main():
    if len(sys.argv) not in (4, 5, 6) or (len(sys.argv) == 6 and sys.argv[5] != "relay"):
        sys.exit(__doc__)
    n, request, reply = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    k = int(sys.argv[4]) if len(sys.argv) >= 5 else 0
    relay = len(sys.argv) == 6 and k > 0
    size = (lambda j: subtree_size(j, n, k)) if relay else (lambda j: 1)
    out = [f"num_ranks {n + 1}"]
    for j in range(n + 1):
        kids = list(range(1, n + 1)) if k == 0 and j == 0 else ([] if k == 0 else children(j, n, k))
        ops = []
        if j > 0:
            ops.append(f"q: recv {request * size(j)}b from {0 if k == 0 else (j - 1) // k} tag 1")
        for c in kids:
            ops.append(f"s{c}: send {request * size(c)}b to {c} tag 1")
            if j > 0:
                ops.append(f"s{c} requires q")
        for c in kids:
            ops.append(f"r{c}: recv {reply * size(c)}b from {c} tag 2")
            ops.append(f"r{c} requires s{kids[-1]}")  # as AgentHub::ask: every request out, then the replies
        if j > 0:
            ops.append(f"a: send {reply * size(j)}b to {0 if k == 0 else (j - 1) // k} tag 2")
            ops.append("a requires q")
            ops.extend(f"a requires r{c}" for c in kids)
        out.append(f"rank {j} {{ " + "; ".join(ops) + "; }")
    print("\n".join(out))


if __name__ == "__main__":
    main()
