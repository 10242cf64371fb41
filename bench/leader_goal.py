#!/usr/bin/env python3
"""One verification round of a multi-node job as a GOAL schedule (docs/simulator.md, "GOAL"),
for `jobsentry simulate --goal`: rank 0 is the leader, ranks 1..N the node agents.

  leader_goal.py N REQUEST_BYTES REPLY_BYTES [FANIN [relay]] [--large-factor F]

Star (FANIN 0): the leader sends every agent its request, then takes the N replies.
Tree (FANIN k): agent i's parent is (i-1)//k (src/hang/multinode/node_tree.h); an agent passes
the request on to its children and waits for their replies before it answers its parent, so that
no one takes more than k replies. Reduced (not built): its reply is of REPLY_BYTES, its subtree's
replies reduced on the way, as LLNL STAT merges stack trees. "relay" (as built, relay.h): its
request and reply carry every node of its subtree, REQUEST_BYTES and REPLY_BYTES for each.

--large-factor F: a message of more than LARGE_BYTES is written into the schedule with F times its
bytes. The simulator has one O (CPU per byte) for every message, while the leader's CPU per byte,
measured, is higher on a message of many nodes' samples (one that arrives in several 64 KiB reads and
is parsed whole) than on a node's: F = O_large / O, both fitted to stars whose agents send messages
of each size (bench/leader_goal.sh). The network's G then also sees F times the bytes, which at
0.8 ns/B is within the model's rounding.
"""
import sys

LARGE_BYTES = 65536  # the leader's read buffer (connection.cpp): a larger message arrives in pieces


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
    args = sys.argv[1:]
    factor = 1.0
    if "--large-factor" in args:
        at = args.index("--large-factor")
        try:
            factor = float(args[at + 1])
        except (IndexError, ValueError):
            sys.exit("--large-factor needs a number (O_large / O, e.g. 1.34)\n" + __doc__)
        del args[at:at + 2]
    if len(args) not in (3, 4, 5) or (len(args) == 5 and args[4] != "relay"):
        sys.exit(__doc__)
    n, request, reply = int(args[0]), int(args[1]), int(args[2])
    k = int(args[3]) if len(args) >= 4 else 0
    relay = len(args) == 5 and k > 0
    size = (lambda j: subtree_size(j, n, k)) if relay else (lambda j: 1)

    def charged(nbytes):  # the bytes a message is written with (--large-factor)
        return round(nbytes * factor) if nbytes > LARGE_BYTES else nbytes

    out = [f"num_ranks {n + 1}"]
    for j in range(n + 1):
        kids = list(range(1, n + 1)) if k == 0 and j == 0 else ([] if k == 0 else children(j, n, k))
        ops = []
        if j > 0:
            ops.append(f"q: recv {charged(request * size(j))}b from {0 if k == 0 else (j - 1) // k} tag 1")
        for c in kids:
            ops.append(f"s{c}: send {charged(request * size(c))}b to {c} tag 1")
            if j > 0:
                ops.append(f"s{c} requires q")
        for c in kids:
            ops.append(f"r{c}: recv {charged(reply * size(c))}b from {c} tag 2")
            ops.append(f"r{c} requires s{kids[-1]}")  # as AgentHub::ask: every request out, then the replies
        if j > 0:
            ops.append(f"a: send {charged(reply * size(j))}b to {0 if k == 0 else (j - 1) // k} tag 2")
            ops.append("a requires q")
            ops.extend(f"a requires r{c}" for c in kids)
        out.append(f"rank {j} {{ " + "; ".join(ops) + "; }")
    print("\n".join(out))


if __name__ == "__main__":
    main()
