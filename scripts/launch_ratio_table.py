#!/usr/bin/env python3
"""Issue 19's GPU launch goal from bench_ab.sh's runs of bench_gpu_runtime's launch cases.

For each case (empty launch, 1 view, 4 views) and tree (base, new), prints the ratio counter of
every round (parallel_for_each host time per launch / raw <<<>>> launch, measured in the same
process: goal <= 1.2), its median, and the median of pfe_us and raw_us.
Usage: launch_ratio_table.py RUNS_DIR   (RUNS_DIR holds bench_gpu_runtime_<tree>_<round>.json)
"""
import glob
import json
import os
import statistics
import sys


def main(runs):
    table = {}
    for path in sorted(glob.glob(os.path.join(runs, "bench_gpu_runtime_*_*.json"))):
        tree = os.path.basename(path).split("_")[3]
        with open(path) as f:
            doc = json.load(f)
        for b in doc["benchmarks"]:
            if "ratio" not in b:
                continue
            case = b["name"].split("/iterations")[0]
            table.setdefault((case, tree), []).append(b)
    print("| case | tree | ratio per round | median ratio | pfe us | raw us |")
    print("|---|---|---|---|---|---|")
    for (case, tree), rows in sorted(table.items()):
        ratios = [r["ratio"] for r in rows]
        print("| %s | %s | %s | **%.3f** | %.3f | %.3f |" % (
            case, tree, " ".join("%.3f" % x for x in ratios), statistics.median(ratios),
            statistics.median(r.get("pfe_us", 0.0) for r in rows),
            statistics.median(r.get("raw_us", 0.0) for r in rows)))


if __name__ == "__main__":
    main(sys.argv[1])
