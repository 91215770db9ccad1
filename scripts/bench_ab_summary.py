#!/usr/bin/env python3
"""Summarises scripts/bench_ab.sh's runs: per benchmark case, the median time of the new tree
over the median time of the base tree (each over its two rounds), and the base tree's own
round-to-round ratio, which is the noise of that case in that run.

    python3 scripts/bench_ab_summary.py <folder of <target>_<tree>_<round>.json files>
"""
import glob
import json
import os
import re
import statistics
import sys


def load(path):
    with open(path) as f:
        data = json.load(f)
    times = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = b["name"].replace("_median", "")
        times[name] = float(b["real_time"])
    return times


def main(folder):
    runs = {}
    for path in glob.glob(os.path.join(folder, "*.json")):
        m = re.match(r"(.+)_(base|new)_(\d+)\.json$", os.path.basename(path))
        if not m:
            continue
        target, tree, rnd = m.groups()
        runs.setdefault(target, {}).setdefault(tree, {})[int(rnd)] = load(path)
    print("| benchmark | case | base time | new / base | base round 2 / round 1 |")
    print("|---|---|---|---|---|")
    all_ratios = []
    all_noise = []
    for target in sorted(runs):
        base = runs[target].get("base", {})
        new = runs[target].get("new", {})
        names = sorted(set().union(*[set(r) for r in base.values()]) if base else [])
        for name in names:
            b = [r[name] for r in base.values() if name in r]
            n = [r[name] for r in new.values() if name in r]
            if not b or not n or min(b) <= 0:
                continue
            ratio = statistics.median(n) / statistics.median(b)
            noise = (base[2][name] / base[1][name]) if (1 in base and 2 in base and
                                                         name in base[1] and name in base[2]) else float("nan")
            all_ratios.append(ratio)
            if noise == noise:
                all_noise.append(noise)
            print(f"| {target} | {name} | {statistics.median(b):.4g} | {ratio:.3f} | {noise:.3f} |")
    if all_ratios:
        print()
        print(f"cases: {len(all_ratios)}; new/base: median {statistics.median(all_ratios):.3f}, "
              f"min {min(all_ratios):.3f}, max {max(all_ratios):.3f}")
    if all_noise:
        print(f"base round 2 / round 1 (noise): median {statistics.median(all_noise):.3f}, "
              f"min {min(all_noise):.3f}, max {max(all_noise):.3f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
