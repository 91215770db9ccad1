#!/usr/bin/env python3
"""Passes over memory of the GPU bitonic sort of 2^L elements: the present schedule against one
whose passes may straddle two stages (docs/performance.md, the sort's known gap).

A network level compares each position with its XOR by a mask: 2^s - 1 for stage s's first
(mirror) level, 2^b for a half-cleaner on bit b. A pass whose block holds a coset of the span
of its levels' masks, plus the low `run_bits` bits (contiguous runs, for coalesced loads), can
run all those levels on-chip if the span has at most log2(tile) dimensions. The first pass
sorts tiles (stages 1..log2 tile); later levels are packed greedily, in network order.

    scripts/bitonic_pass_count.py            # table for 2^16 .. 2^26
"""
import sys


def rank(masks):
    basis = []
    for m in masks:
        for b in basis:
            m = min(m, m ^ b)
        if m:
            basis.append(m)
    return len(basis)


def straddling_passes(log2_n, log2_tile, run_bits):
    levels = []
    for s in range(log2_tile + 1, log2_n + 1):
        levels.append((1 << s) - 1)
        levels.extend(1 << b for b in range(s - 2, -1, -1))
    runs = [1 << i for i in range(run_bits)]
    passes, current = 1, []
    for m in levels:
        if rank(runs + current + [m]) <= log2_tile:
            current.append(m)
        else:
            passes, current = passes + 1, [m]
    return passes + (1 if current else 0)


def present_passes(log2_n, log2_tile=13, k=5):
    """The library's schedule: per later stage, ceil(bits above the tile / k) global rounds
    and one tile pass."""
    return 1 + sum(-(-(s - log2_tile) // k) + 1 for s in range(log2_tile + 1, log2_n + 1))


def main():
    sizes = range(16, 27, 2) if len(sys.argv) < 2 else [int(a) for a in sys.argv[1:]]
    print("log2 n | present (2^13 tiles) | straddling 2^13 / 2^14 / 2^15 tiles, 32-byte runs"
          " | same, 128-byte runs")
    for l in sizes:
        a = " / ".join(str(straddling_passes(l, t, 3)) for t in (13, 14, 15))
        b = " / ".join(str(straddling_passes(l, t, 5)) for t in (13, 14, 15))
        print(f"{l:6} | {present_passes(l):20} | {a:>44} | {b}")


if __name__ == "__main__":
    main()
