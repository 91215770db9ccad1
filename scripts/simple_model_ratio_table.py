#!/usr/bin/env python3
"""Issue 19's CPU goal from A/B runs of bench_simple_model (scripts/env_ab.sh, cpu_tree_ab.sh).

Reads RUNS_DIR/bench_simple_model_<side>_t<threads>_<round>.json and prints, per case, thread
count and side (a switch's on/off, or a tree's base/new), the ratio counter of every round
(OpenMP time / hipamp time in the same process: goal >= 0.95) and its median.
Usage: simple_model_ratio_table.py RUNS_DIR [COLUMN_NAME]
"""
import glob
import json
import os
import statistics
import sys


def main(runs, column):
    table = {}
    for path in sorted(glob.glob(os.path.join(runs, "bench_simple_model_*.json"))):
        side, threads = os.path.basename(path)[:-5].split("_")[3:5]
        with open(path) as f:
            doc = json.load(f)
        for b in doc["benchmarks"]:
            if "ratio" in b:
                case = b["name"].split("/manual")[0]
                table.setdefault((case, threads, side), []).append(b["ratio"])
    print("\n| CPU case | threads | %s | ratio per round | median |" % column)
    print("|---|---|---|---|---|")
    for (case, threads, side), ratios in sorted(table.items()):
        print("| %s | %s | %s | %s | **%.3f** |" % (
            case, threads[1:], side, " ".join("%.3f" % x for x in ratios),
            statistics.median(ratios)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "side")
