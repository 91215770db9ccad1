#!/usr/bin/env python3
"""Tabulates scripts/probes/launch_phases.sh's output (issue 19, session 22): per thread count,
tree and heap mode, and launch kind, each run's total/pre/region/post (us); with
HIPAMP_PROBE_STAMPS, the steps of the full launch.
    python3 scripts/probes/launch_phases_summary.py launch_phases.txt"""
import collections
import re
import sys

rows = collections.defaultdict(list)
names = []
for block in open(sys.argv[1]).read().split("== ")[1:]:
    tree = block.split(",")[0]
    threads = re.search(r"threads (\d+)", block).group(1)
    for m in re.finditer(r"^(omp 4 lines new|omp 4 lines same|omp 0 lines|omp|hipamp prebuilt|hipamp raw|hipamp)\s+total ([\d.]+)\s+pre ([\d.]+)"
                         r"\s+region ([\d.]+)\s+post ([\d.]+)", block, re.M):
        rows[(threads, tree, m.group(1))].append("/".join(m.groups()[1:]))
    m = re.search(r"steps of hipamp \(median us\):(.*)", block)
    if m:
        steps = re.findall(r"\[([^\]]+)\] ([\d.]+)", m.group(1))
        names = [n for n, _ in steps]
        rows[(threads, tree, "steps")].append(" ".join(v for _, v in steps))
print("total/pre/region/post us per run; steps:", ", ".join(names))
for key in sorted(rows):
    print(" ".join(key), "|", " | ".join(rows[key]))
