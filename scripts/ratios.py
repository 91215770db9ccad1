#!/usr/bin/env python3
"""Pairs Google Benchmark results by name and prints peer/hipamp time ratios.

A benchmark named `<work>_hipamp/<args>` is paired with `<work>_<peer>/<args>` from the same
JSON file (the same run). The ratio is peer time / hipamp time: above 1.0 hipamp is faster.
Usage: ratios.py result.json [more.json ...]   (prints a markdown table)
"""
import json
import sys


def main(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        ctx = doc.get("context", {})
        by_name = {}
        for b in doc["benchmarks"]:
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            name = b["run_name"] if "run_name" in b else b["name"]
            by_name[name] = b
        for name, b in by_name.items():
            base, _, args = name.partition("/")
            if not base.endswith("_hipamp"):
                continue
            work = base[: -len("_hipamp")]
            for peer_name, peer in by_name.items():
                pbase, _, pargs = peer_name.partition("/")
                if pargs != args or not pbase.startswith(work + "_") or pbase == base:
                    continue
                ratio = peer["real_time"] / b["real_time"]
                rows.append((work, args, pbase[len(work) + 1:], b["real_time"], peer["real_time"],
                             b["time_unit"], ratio, ctx.get("num_cpus", "?")))
    print("| workload | size | peer | hipamp time | peer time | peer/hipamp | cpus |")
    print("|---|---|---|---|---|---|---|")
    for work, args, peer, t, pt, unit, ratio, cpus in rows:
        print(f"| {work} | {args} | {peer} | {t:.3g} {unit} | {pt:.3g} {unit} | {ratio:.2f} | {cpus} |")


if __name__ == "__main__":
    main(sys.argv[1:])
