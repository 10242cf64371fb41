#!/usr/bin/env python3
"""One verification round of a multi-node job as a GOAL schedule (docs/simulator.md, "GOAL"),
for `jobsentry simulate --goal`: rank 0 is the leader, ranks 1..N the node agents.

  leader_goal.py N REQUEST_BYTES REPLY_BYTES [FANIN]

Star (FANIN 0, as built): the leader sends every agent its request, then takes the N replies.
Tree (FANIN k, not built): agent i's parent is (i-1)//k; an agent passes the request on to its
children, waits for their replies and sends its parent one reply of REPLY_BYTES (its subtree
reduced on the way, as LLNL STAT merges stack trees), so that no one takes more than k replies.
"""
import sys


def children(j, n, k):
    first = j * k + 1
    return list(range(first, min(first + k, n + 1)))


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    n, request, reply = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    k = int(sys.argv[4]) if len(sys.argv) == 5 else 0
    out = [f"num_ranks {n + 1}"]
    for j in range(n + 1):
        kids = list(range(1, n + 1)) if k == 0 and j == 0 else ([] if k == 0 else children(j, n, k))
        ops = []
        if j > 0:
            ops.append(f"q: recv {request}b from {0 if k == 0 else (j - 1) // k} tag 1")
        for c in kids:
            ops.append(f"s{c}: send {request}b to {c} tag 1")
            if j > 0:
                ops.append(f"s{c} requires q")
        for c in kids:
            ops.append(f"r{c}: recv {reply}b from {c} tag 2")
            ops.append(f"r{c} requires s{kids[-1]}")  # as AgentHub::ask: every request out, then the replies
        if j > 0:
            ops.append(f"a: send {reply}b to {0 if k == 0 else (j - 1) // k} tag 2")
            ops.append("a requires q")
            ops.extend(f"a requires r{c}" for c in kids)
        out.append(f"rank {j} {{ " + "; ".join(ops) + "; }")
    print("\n".join(out))


if __name__ == "__main__":
    main()
