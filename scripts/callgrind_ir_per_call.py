#!/usr/bin/env python3
"""Inclusive instructions per call of every function whose name contains PATTERN, from a
callgrind output file (calls= lines of its callers): python3 scripts/callgrind_ir_per_call.py FILE PATTERN
(bench_launch_bookkeeping: PATTERN = bookkeeping_launch; benchmarks/results/devvm_issue19_launch_pool_2026-11-26.md)"""
import re, sys
path, pattern = sys.argv[1], sys.argv[2]
names = {}
calls = ir = 0
want = False
pending_calls = None
for line in open(path, errors="replace"):
    m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
    if line.startswith("cfn="):
        i = m.group(1)
        if m.group(2): names[i] = m.group(2)
        want = pattern in names.get(i, "")
        continue
    if line.startswith("fn="):
        if m.group(2): names[m.group(1)] = m.group(2)
        want = False
        continue
    if line.startswith("calls="):
        pending_calls = int(line.split("=")[1].split()[0]) if want else None
        continue
    if pending_calls is not None:
        parts = line.split()
        calls += pending_calls
        ir += int(parts[1])
        pending_calls = None
        want = False
print(f"{calls} calls, {ir / max(calls, 1):.0f} Ir/call")
