#!/usr/bin/env python3
"""The job's slowdown from the ranks' compute rates, from all samples and from the samples taken on
the CPU alone, against the slowdown the application's own output shows (docs/benchmarks.md,
"Samples taken on the CPU").

  on_cpu_rates.py DIR [THRESHOLD_US ...]        (default thresholds: 300 500 1000)

DIR holds what `KEEP_DIR=DIR bash tests/mpi/slow_rank.sh ...` keeps: watch.err (a `--verbose` log,
whose sample records carry s=, the µs a rank took to stop), app.steps (the epoch time of each line
the application prints once per step) and injected (the fault's epoch time; without it, the middle
of the recorded rounds splits the run). The records' times are CLOCK_MONOTONIC: run this on the
machine and boot that ran the job.

A rank's compute rate is its CPU time a second (schedstat, r=) times its share of samples computing
(i=0); the factor is the ranks' summed rates before the fault (its first 20 rounds left out) over
those from 5 s after it. A sample "on the CPU" stopped within THRESHOLD_US: a rank waiting for its
CPU stops only when it is next scheduled, and is then seen where it gave the CPU up.
"""
import os
import re
import sys
import time

RECORD = re.compile(r"r(\d+)=(.*)")


def rounds(log):
    """Every round's records whose ranks all carry t, r and s: {rank: {key: value}}."""
    out = []
    for line in open(log):
        if " record:" not in line:
            continue
        round_ = {}
        for word in line.split(" record:", 1)[1].split():
            m = RECORD.fullmatch(word)
            if m:
                fields = dict(kv.split("=", 1) for kv in m.group(2).split(",")[1:])
                if {"t", "r", "s", "i"} <= fields.keys():
                    round_[int(m.group(1))] = fields
        if round_:
            out.append(round_)
    ranks = set.intersection(*(set(r) for r in out)) if out else set()
    return [r for r in out if set(r) >= ranks and ranks], sorted(ranks)


def pace(steps, begin, end):
    inside = [t for t in steps if begin <= t < end]
    return (len(inside) - 1) / (inside[-1] - inside[0]) if len(inside) > 2 else float("nan")


def summed_rate(part, ranks, threshold_us):
    total = 0.0
    for k in ranks:
        seen = [r[k] for r in part]
        wall = float(seen[-1]["t"]) - float(seen[0]["t"])
        cpu = (int(seen[-1]["r"]) - int(seen[0]["r"])) / 1e9 / wall
        kept = [s for s in seen if threshold_us is None or int(s["s"]) < threshold_us]
        total += cpu * (sum(s["i"] == "0" for s in kept) / len(kept) if kept else 0)
    return total


def main():
    if len(sys.argv) < 2 or not os.path.isdir(sys.argv[1]):
        sys.exit(__doc__)
    where = sys.argv[1]
    try:
        thresholds = [float(a) for a in sys.argv[2:]] or [300, 500, 1000]
    except ValueError:
        sys.exit("thresholds are numbers of µs\n" + __doc__)
    recorded, ranks = rounds(os.path.join(where, "watch.err"))
    if len(recorded) < 60:
        sys.exit(f"{where}/watch.err: {len(recorded)} rounds with t, r, s and i for every rank (a --verbose log of "
                 "this build, at least 60 rounds, expected)")
    to_monotonic = time.time() - time.monotonic()
    injected = os.path.join(where, "injected")
    if os.path.exists(injected) and os.path.getsize(injected) > 0:
        fault = float(open(injected).read().split()[0]) - to_monotonic
    else:
        fault = float(recorded[len(recorded) // 2][ranks[0]]["t"])
    before = [r for r in recorded if float(r[ranks[0]]["t"]) < fault][20:]
    after = [r for r in recorded if float(r[ranks[0]]["t"]) >= fault + 5]
    if len(before) < 20 or len(after) < 20:
        sys.exit(f"{len(before)} rounds before the fault and {len(after)} after: 20 of each needed")
    steps = [float(x) for x in open(os.path.join(where, "app.steps")) if x.strip()]
    epoch_fault = fault + to_monotonic
    measured = pace(steps, 0, epoch_fault) / pace(steps, epoch_fault + 5, float("inf"))
    factors = [summed_rate(before, ranks, None) / summed_rate(after, ranks, None)]
    factors += [summed_rate(before, ranks, t) / summed_rate(after, ranks, t) for t in thresholds]
    print(f"| {where} | {measured:.2f}x | {factors[0]:.2f}x | " +
          " / ".join(f"{f:.2f}" for f in factors[1:]) + f"x (< {' / '.join(f'{t:.0f}' for t in thresholds)} µs) |")


if __name__ == "__main__":
    main()
