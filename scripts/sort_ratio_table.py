#!/usr/bin/env python3
"""Issue 18's table from one bench_sort JSON: per benchmark family, the ratio CUB time /
hipamp time (counter `speedup`) at each size, sizes as columns.

  scripts/sort_ratio_table.py benchmarks/results/<file>.json
"""
import json
import re
import sys
from collections import OrderedDict

data = json.load(open(sys.argv[1]))
rows = OrderedDict()
for b in data["benchmarks"]:
    m = re.match(r"(gpu_[^/]+)/(\d+)/", b["name"])
    if not m or "speedup" not in b:
        continue
    rows.setdefault(m.group(1), OrderedDict())[int(m.group(2))] = (b["speedup"], b.get("hipamp_ms"), b.get("peer_ms"))


def label(n):
    if n & (n - 1) == 0:
        return "2^%d" % (n.bit_length() - 1)
    if (n + 1) & n == 0:
        return "2^%d-1" % n.bit_length()
    if n - 1 > 0 and (n - 1) & (n - 2) == 0:
        return "2^%d+1" % ((n - 1).bit_length() - 1)
    for e in range(3, 10):
        if n == 10 ** e:
            return "10^%d" % e
    return str(n)


for name, sizes in rows.items():
    print("\n**%s** (CUB ms / hipamp ms = ratio)\n" % name)
    print("| size | hipamp ms | CUB ms | ratio |")
    print("|---|---:|---:|---:|")
    for n, (r, h, p) in sizes.items():
        print("| %s | %.4f | %.4f | %.2f |" % (label(n), h or 0, p or 0, r))
for b in data["benchmarks"]:
    if b["name"].startswith("gpu_non_power_of_two_cost"):
        print("\n**gpu_non_power_of_two_cost**: " + ", ".join(
            "%s=%.4g" % (k, v) for k, v in b.items() if "ms" in k or "ratio" in k))
